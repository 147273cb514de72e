from django.urls import path

from competitions.api import (
    championships,
    dry_run,
    engine,
    results,
    results_schema,
    suspensions,
    tournaments,
)

app_name = "competitions"

engine_urlpatterns = [
    path("deals/score/", engine.ScoreDeal.as_view(), name="engine-score-deal"),
    path("sheets/total/", engine.TotalSheet.as_view(), name="engine-total-sheet"),
    path("penalties/", engine.PenaltyCatalogue.as_view(), name="engine-penalties"),
    path("movements/plan/", engine.PlanMovement.as_view(), name="engine-plan-movement"),
    path("big-prize/plan/", engine.PlanBigPrize.as_view(), name="engine-plan-big-prize"),
    path("standings/rank/", engine.RankEntries.as_view(), name="engine-rank"),
]

tournament_urlpatterns = [
    path("", tournaments.TournamentListCreate.as_view(), name="tournament-list"),
    path(
        "homologation-check/",
        dry_run.PlanHomologationCheck.as_view(),
        name="tournament-plan-homologation-check",
    ),
    path(
        "results-schema/",
        results_schema.ResultsDocumentSchema.as_view(),
        name="results-document-schema",
    ),
    path(
        "results-schema/sheets/",
        results_schema.ScoreSheetsDocumentSchema.as_view(),
        name="score-sheets-document-schema",
    ),
    path("<int:pk>/", tournaments.TournamentDetail.as_view(), name="tournament-detail"),
    path(
        "<int:pk>/homologation-check/",
        dry_run.TournamentHomologationCheck.as_view(),
        name="tournament-homologation-check",
    ),
    path("<int:pk>/results/", results.ResultsView.as_view(), name="tournament-results"),
    path(
        "<int:pk>/results/preview/",
        results.ResultsPreviewView.as_view(),
        name="tournament-results-preview",
    ),
    path(
        "<int:pk>/offence-cost/",
        engine.OffenceCost.as_view(),
        name="tournament-offence-cost",
    ),
    path("<int:pk>/revisions/", results.RevisionsView.as_view(), name="tournament-revisions"),
    path("<int:pk>/homologate/", results.HomologateView.as_view(), name="tournament-homologate"),
    path("<int:pk>/refuse/", results.RefuseView.as_view(), name="tournament-refuse"),
    path("<int:pk>/corrections/", results.CorrectionView.as_view(), name="tournament-correct"),
]

suspension_urlpatterns = [
    path("", suspensions.SuspensionProposalList.as_view(), name="suspension-proposal-list"),
    path(
        "<int:pk>/confirm/",
        suspensions.SuspensionProposalConfirm.as_view(),
        name="suspension-proposal-confirm",
    ),
    path(
        "<int:pk>/dismiss/",
        suspensions.SuspensionProposalDismiss.as_view(),
        name="suspension-proposal-dismiss",
    ),
]

championship_urlpatterns = [
    path("", championships.ChampionshipListCreate.as_view(), name="championship-list"),
    path("me/", championships.Me.as_view(), name="championship-me"),
    path("titles/", championships.TitleList.as_view(), name="championship-titles"),
    path("recheck-teams/", championships.TeamsRecheck.as_view(), name="championship-recheck"),
    path("<int:pk>/", championships.ChampionshipDetail.as_view(), name="championship-detail"),
    path("<int:pk>/rules/", championships.ChampionshipRules.as_view(), name="championship-rules"),
    path("<int:pk>/check-team/", dry_run.CheckTeam.as_view(), name="championship-check-team"),
    path(
        "<int:pk>/regionals/",
        championships.RegionalListCreate.as_view(),
        name="championship-regionals",
    ),
    path("<int:pk>/stages/", championships.StageListCreate.as_view(), name="championship-stages"),
    path("<int:pk>/quotas/", championships.Quotas.as_view(), name="championship-quotas"),
    path(
        "<int:pk>/outgoing-champion/",
        championships.OutgoingChampion.as_view(),
        name="championship-outgoing-champion",
    ),
    path(
        "<int:pk>/qualification/",
        championships.QualificationView.as_view(),
        name="championship-qualification",
    ),
    path(
        "<int:pk>/qualifications/",
        championships.RecordedQualifications.as_view(),
        name="championship-qualifications",
    ),
    path(
        "<int:pk>/national-final/register/",
        championships.NationalFinalRegister.as_view(),
        name="championship-national-final-register",
    ),
    path("regionals/<int:pk>/", championships.RegionalDetail.as_view(), name="regional-detail"),
    path(
        "regionals/<int:pk>/rules/",
        championships.RegionalRulesPublish.as_view(),
        name="regional-rules",
    ),
    path(
        "regionals/<int:pk>/rules/check/",
        championships.RegionalRulesCheck.as_view(),
        name="regional-rules-check",
    ),
    path(
        "regionals/<int:pk>/rules/<int:version>/approve/",
        championships.RegionalRulesApprove.as_view(),
        name="regional-rules-approve",
    ),
    path("stages/<int:pk>/", championships.StageDetail.as_view(), name="stage-detail"),
    path("stages/<int:pk>/entries/", championships.StageEntries.as_view(), name="stage-entries"),
    path(
        "stages/<int:pk>/entries/<int:number>/withdraw/",
        championships.EntryWithdraw.as_view(),
        name="stage-entry-withdraw",
    ),
    path("stages/<int:pk>/results/", championships.StageResults.as_view(), name="stage-results"),
    path("stages/<int:pk>/check/", championships.StageCheck.as_view(), name="stage-check"),
    path("stages/<int:pk>/check-entry/", dry_run.CheckEntry.as_view(), name="stage-check-entry"),
    path(
        "stages/<int:pk>/homologate/",
        championships.StageHomologate.as_view(),
        name="stage-homologate",
    ),
    path(
        "stages/<int:pk>/seating/", championships.StageSeatingView.as_view(), name="stage-seating"
    ),
    path(
        "stages/<int:pk>/penalties/",
        championships.StagePenalties.as_view(),
        name="stage-penalties",
    ),
]
