"""Input and output shapes of the engine endpoints. Structure only: the rules
(what a deal may be) are checked by the pure engine, which names the field."""

from __future__ import annotations

from rest_framework import serializers

from competitions.models import TournamentFormat
from competitions.rules.engine.big_prize import BigPrizeFormula
from competitions.rules.engine.movements.plan import RepeatKind
from competitions.rules.engine.movements.printed import MovementKind
from competitions.rules.engine.movements.settings import ShortTableRule
from competitions.rules.engine.penalties import Penalty, PenaltyKind, RepeatScope
from competitions.rules.engine.revokes import DefenceRevoke, TakerChoice
from competitions.rules.engine.scoring import Contract, Deal, Poignee, Side
from competitions.rules.engine.sheets import DealLine, ScoreSheet
from competitions.rules.engine.standings import (
    Entry,
    MemberResult,
    RankingMode,
    Separation,
    TieBreakData,
)
from competitions.rules.engine.tables import Orientation, TableSize

SEATS = [o.value for o in Orientation]

# The penalty kinds, one enum in the OpenAPI schema (ENUM_NAME_OVERRIDES: PenaltyKindEnum).
PENALTY_KINDS = [k.value for k in PenaltyKind]


class PoigneeIn(serializers.Serializer):
    seat = serializers.ChoiceField(choices=SEATS, help_text="Seat of the player who showed it.")
    trumps = serializers.IntegerField(help_text="Number of trumps shown (10/13/15 at 4 players).")


class DealIn(serializers.Serializer):
    """What happened at the table in one deal (une donne)."""

    table_size = serializers.ChoiceField(choices=[3, 4, 5])
    contract = serializers.ChoiceField(
        choices=[c.value for c in Contract], allow_null=True, help_text="null: everyone passed."
    )
    taker = serializers.ChoiceField(choices=SEATS, allow_null=True, required=False)
    called_partner = serializers.ChoiceField(
        choices=SEATS,
        allow_null=True,
        required=False,
        help_text="5 players only; null when the taker plays alone.",
    )
    oudlers = serializers.IntegerField(allow_null=True, required=False)
    attack_points = serializers.DecimalField(
        max_digits=4,
        decimal_places=1,
        allow_null=True,
        required=False,
        help_text="Card points of the attack; half points at 3 and 5 players.",
    )
    poignees = PoigneeIn(many=True, required=False)
    petit_au_bout = serializers.ChoiceField(
        choices=[s.value for s in Side], allow_null=True, required=False
    )
    chelem_announced = serializers.BooleanField(required=False, default=False)
    chelem_made_by = serializers.ChoiceField(
        choices=[s.value for s in Side], allow_null=True, required=False
    )

    def to_deal(self) -> Deal:
        data = self.validated_data
        return Deal(
            table_size=TableSize(data["table_size"]),
            contract=data["contract"],
            taker=data.get("taker"),
            called_partner=data.get("called_partner"),
            oudlers=data.get("oudlers"),
            attack_points=data.get("attack_points"),
            poignees=tuple(
                Poignee(seat=p["seat"], trumps=p["trumps"]) for p in data.get("poignees", [])
            ),
            petit_au_bout=data.get("petit_au_bout"),
            chelem_announced=data.get("chelem_announced", False),
            chelem_made_by=data.get("chelem_made_by"),
        )


class ScoreDealIn(DealIn):
    """A deal, and at a table of 5 inside a tournament the seat sitting it out."""

    sitting_out = serializers.ChoiceField(
        choices=SEATS,
        allow_null=True,
        required=False,
        help_text="Table of 5 inside a tournament: the seat of the player who deals and sits "
        "this deal out (le mort, who marks 0); the four others play the 4-player game, so "
        "table_size is 4. Leave it out for the 5-player game (called king).",
    )


class BreakdownOut(serializers.Serializer):
    points_needed = serializers.IntegerField()
    counted_points = serializers.IntegerField()
    contract_won = serializers.BooleanField()
    difference = serializers.IntegerField()
    contract_value = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    contract_points = serializers.IntegerField()
    petit_au_bout = serializers.IntegerField()
    poignees = serializers.IntegerField()
    chelem = serializers.IntegerField()
    total = serializers.IntegerField()


class DealScoreOut(serializers.Serializer):
    base = serializers.IntegerField(help_text="x: what each defender pays the attack (signed).")
    marks = serializers.DictField(child=serializers.IntegerField(), help_text="Mark per seat.")
    breakdown = BreakdownOut(allow_null=True)


class DefenceRevokeIn(serializers.Serializer):
    taker_choice = serializers.ChoiceField(
        choices=[c.value for c in TakerChoice],
        help_text="scored: the deal is scored from its facts (the points illicitly won given "
        "back); not_scored: the taker declines the score, the deal marks 0 and is not a deal "
        "played.",
    )
    by = serializers.ChoiceField(
        choices=SEATS, allow_null=True, required=False, default=None,
        help_text="The defender who revoked (optional); he may not take the next deal.",
    )  # fmt: skip


class DealLineIn(serializers.Serializer):
    facts = DealIn(required=False, allow_null=True)
    marks = serializers.DictField(
        child=serializers.IntegerField(), required=False, allow_null=True,
        help_text="Marks written on the sheet, by seat (signed).",
    )  # fmt: skip
    sitting_out = serializers.ChoiceField(
        choices=SEATS, allow_null=True, required=False,
        help_text="Table of 5 inside a tournament: the seat sitting this deal out (le mort, "
        "marks 0); every line of the sheet names one, in turn. The facts are then at 4 players.",
    )  # fmt: skip
    annulled = serializers.BooleanField(
        required=False, default=False,
        help_text="Annulled by the arbiter (chapter 4): scores nothing and is not a deal played.",
    )  # fmt: skip
    defence_revoke = DefenceRevokeIn(
        required=False, allow_null=True,
        help_text="A revoke in defence (renonce consommée en défense) and the taker's choice "
        "(chapter 4, « Renonce »: « le preneur a le choix de faire marquer ou non le score »).",
    )  # fmt: skip


class ScoreSheetIn(serializers.Serializer):
    """A feuille de marque: one table, one position, players by orientation, one line per deal."""

    table = serializers.IntegerField()
    position = serializers.IntegerField()
    players = serializers.DictField(
        child=serializers.CharField(),
        help_text="Player (licence number) by seat: N, S, E, W, and 5 at a table of 5.",
    )
    deals = DealLineIn(many=True)

    def to_sheet(self) -> ScoreSheet:
        data = self.validated_data
        lines = []
        for index, line in enumerate(data["deals"]):
            facts = None
            if line.get("facts"):
                deal_serializer = DealIn(data=self.initial_data["deals"][index]["facts"])
                deal_serializer.is_valid(raise_exception=True)
                facts = deal_serializer.to_deal()
            lines.append(
                DealLine(
                    facts=facts,
                    marks=line.get("marks"),
                    sitting_out=line.get("sitting_out"),
                    annulled=line.get("annulled", False),
                    defence_revoke=_revoke(line.get("defence_revoke")),
                )
            )
        return ScoreSheet(
            table=data["table"],
            position=data["position"],
            players=data["players"],
            deals=tuple(lines),
        )


def _revoke(data: dict | None) -> DefenceRevoke | None:
    if data is None:
        return None
    return DefenceRevoke(taker_choice=TakerChoice(data["taker_choice"]), by=data.get("by"))


class PlayerTotalOut(serializers.Serializer):
    seat = serializers.CharField()
    player = serializers.CharField()
    plus = serializers.IntegerField()
    minus = serializers.IntegerField()
    balance = serializers.IntegerField()


class SheetTotalsOut(serializers.Serializer):
    table = serializers.IntegerField()
    position = serializers.IntegerField()
    table_size = serializers.IntegerField()
    deal_marks = serializers.ListField(
        child=serializers.DictField(child=serializers.IntegerField())
    )
    players = PlayerTotalOut(many=True)
    deals_played = serializers.IntegerField(
        help_text="Lines not annulled, by the arbiter or by the taker's choice after a revoke "
        "in defence (chapter 4: an annulled deal is not a deal played)."
    )
    sitting_out = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="Each line's mort at a table of 5 inside a tournament, else null.",
    )
    five_player_game = serializers.BooleanField(
        help_text="A table of 5 playing the 5-player game (called king), which is not "
        "homologable; false for a table of 5 with a mort."
    )


class MovementIn(serializers.Serializer):
    """A movement request: how many players (or players of all the teams), how
    many positions, which format, the rule for tables of 3; an optional random
    first seating."""

    players = serializers.IntegerField(min_value=1, max_value=600)
    positions = serializers.IntegerField(min_value=1, max_value=20)
    format = serializers.ChoiceField(choices=TournamentFormat.choices, default="individual")
    short_table_rule = serializers.ChoiceField(
        choices=[r.value for r in ShortTableRule],
        required=False,
        help_text="May a player sit at a table of 3 more than once? 'strict': never (fewer "
        "positions are allowed); 'best_effort': as few players as possible, nobody three "
        "times when avoidable, every repeat listed in 'repeats'. Without it, the current "
        "season's rulebook decides (movements.short_table_rule; best effort by default).",
    )
    seed = serializers.IntegerField(
        required=False,
        help_text="With a seed, starting numbers are drawn at random (reproducibly) for the "
        "entrants 1..n; without, entrant k takes starting number k.",
    )
    tables_of_five = serializers.BooleanField(
        default=False,
        help_text="Individual only, players not a multiple of 4 (13 players at least): seat "
        "the players beyond the full tables as the fifth player of a table (a mort sits out "
        "each deal in turn, fasc. 457-459) instead of tables of 3. The fifth players move "
        "up together by one step; their repeated meetings are listed in 'repeats'. Such a "
        "tournament stays homologable (it plays the 4-player game).",
    )


class MovementTableOut(serializers.Serializer):
    table = serializers.IntegerField()
    N = serializers.IntegerField(allow_null=True, help_text="Starting number; null: removed.")
    S = serializers.IntegerField(allow_null=True)
    E = serializers.IntegerField(allow_null=True)
    W = serializers.IntegerField(allow_null=True)
    fifth = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Tables of 5 only: the fifth player (null: a table of 4).",
    )


class MovementPositionOut(serializers.Serializer):
    position = serializers.IntegerField(help_text="Played position, from 1.")
    tables = MovementTableOut(many=True)


class SheetLineOut(serializers.Serializer):
    position = serializers.IntegerField()
    table = serializers.IntegerField()
    orientation = serializers.ChoiceField(choices=SEATS)


class RepeatOut(serializers.Serializer):
    """Who sits at a table of 3 again, or meets an opponent again, and when."""

    kind = serializers.ChoiceField(
        choices=[k.value for k in RepeatKind],
        help_text="'short_table': one player at a table of 3 at several positions; "
        "'table_of_five': one player at a table of 5 at several positions; "
        "'meeting': two players at one table at several positions (the printed "
        "3-table Howell, and the fifth players of tables of 5).",
    )
    players = serializers.ListField(
        child=serializers.IntegerField(), help_text="One starting number, or the pair."
    )
    positions = serializers.ListField(
        child=serializers.IntegerField(), help_text="Every position where it happens."
    )
    tables = serializers.ListField(
        child=serializers.IntegerField(), help_text="The table at each of those positions."
    )


class SeatAssignmentOut(serializers.Serializer):
    number = serializers.IntegerField()
    table = serializers.IntegerField()
    orientation = serializers.ChoiceField(choices=SEATS)
    entrant = serializers.CharField()
    player = serializers.CharField()


class MovementPlanOut(serializers.Serializer):
    """A checked movement plan: every position's tables, each starting number's
    personal sheet, and every repeat the plan makes."""

    format = serializers.ChoiceField(choices=TournamentFormat.choices)
    kind = serializers.ChoiceField(choices=[k.value for k in MovementKind])
    tables = serializers.IntegerField()
    players = serializers.IntegerField()
    short_table_rule = serializers.ChoiceField(
        choices=[r.value for r in ShortTableRule], help_text="The rule the plan follows."
    )
    vacant_numbers = serializers.ListField(
        child=serializers.IntegerField(), help_text="North seats removed for tables of 3."
    )
    teams = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Partners by starting number (empty for an individual tournament).",
    )
    positions = MovementPositionOut(many=True)
    personal_sheets = serializers.DictField(
        child=SheetLineOut(many=True), help_text="By starting number: position → table, seat."
    )
    repeats = RepeatOut(
        many=True,
        help_text="Every player at a table of 3 more than once, then every pair meeting "
        "more than once; empty when nobody repeats.",
    )
    seating = SeatAssignmentOut(many=True, required=False, help_text="With a seed only.")
    fifth_players = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Tables of 5 only: the starting numbers of the fifth players.",
    )
    fifth_step = serializers.IntegerField(
        required=False,
        help_text="Tables of 5 only: tables the fifth players move up by between positions.",
    )
    homologable = serializers.BooleanField(
        required=False,
        help_text="Tables of 5 only: true, a table of 5 with a mort keeps the tournament "
        "homologable (« les tournois à 5 joueurs ne sont pas homologables », fasc. 461, is "
        "the called-king game).",
    )


class PenaltyIn(serializers.Serializer):
    player = serializers.CharField(max_length=32)
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    points = serializers.IntegerField()
    reason = serializers.CharField(max_length=300)


class MemberIn(serializers.Serializer):
    player = serializers.CharField(max_length=32, help_text="Licence number (or a name).")
    total = serializers.IntegerField(help_text="The player's score before penalties.")
    position_scores = serializers.ListField(child=serializers.IntegerField(), required=False)
    contracts_made = serializers.DictField(
        child=serializers.IntegerField(), required=False,
        help_text="Contracts made as taker: prise, garde, garde_sans, garde_contre.",
    )  # fmt: skip


class RankEntryIn(serializers.Serializer):
    entry_id = serializers.CharField(max_length=32)
    # many=True passes min_length/max_length on to the ListSerializer; the stubs
    # only know the child's own arguments.
    members = MemberIn(many=True, min_length=1, max_length=4)  # type: ignore[call-arg]
    penalties = PenaltyIn(many=True, required=False)
    abandoned = serializers.BooleanField(
        default=False, help_text="Left before the end (article 27)."
    )


class RankIn(serializers.Serializer):
    """Entries to rank: by decreasing total after penalties; abandoners last; in
    championship mode, article 29 tie-breaks."""

    mode = serializers.ChoiceField(choices=[m.value for m in RankingMode], default="plain")
    entries = RankEntryIn(many=True, min_length=1, max_length=5000)  # type: ignore[call-arg]

    def to_entries(self) -> list[Entry]:
        entries = []
        for e in self.validated_data["entries"]:
            members = tuple(
                MemberResult(
                    player=m["player"],
                    total=m["total"],
                    tie_break=TieBreakData(
                        position_scores=tuple(m.get("position_scores", ())),
                        contracts_made=m.get("contracts_made", {}),
                    )
                    if "position_scores" in m
                    else None,
                )
                for m in e["members"]
            )
            penalties = tuple(Penalty(**p) for p in e.get("penalties", []))
            entries.append(Entry(e["entry_id"], members, penalties, e["abandoned"]))
        return entries


class PlacingOut(serializers.Serializer):
    """One line of a ranking of entries (:func:`competitions.rules.engine.standings.rank`)."""

    place = serializers.IntegerField(help_text='"1224" place.')
    entry_id = serializers.CharField()
    total = serializers.IntegerField(help_text="Score less penalty points: what is ranked.")
    score = serializers.IntegerField(help_text="The members' totals before penalties.")
    penalty_points = serializers.IntegerField()
    abandoned = serializers.BooleanField()
    tied = serializers.BooleanField(help_text="Shares its place with another entry.")
    separated_by = serializers.ChoiceField(
        choices=[s.value for s in Separation],
        allow_null=True,
        help_text="What puts it below the entry just above; null for the first line.",
    )


class BigPrizeRankingRow(serializers.Serializer):
    entry = serializers.CharField(max_length=64)
    place = serializers.IntegerField(min_value=1, help_text='"1224" place.')


class BigPrizeIn(serializers.Serializer):
    """A « tournoi à grosse dotation »: the formula, how many best scores play on, and
    optionally the ranking after the common positions (to name the finalists)."""

    formula = serializers.ChoiceField(choices=[f.value for f in BigPrizeFormula])
    finalists = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=400,
        help_text="24_deals: 12, 16 or 20; 25_deals: 20 (the default).",
    )  # fmt: skip
    ranking = serializers.ListField(
        child=BigPrizeRankingRow(), required=False, max_length=2000,
        help_text='Optional: [{"entry": "7", "place": 1}, …] after the common positions '
        '("1224" places); the finalists are the best places, a tie across the cut refused.',
    )  # fmt: skip


class BigPrizeTableOut(serializers.Serializer):
    table = serializers.IntegerField()
    N = serializers.IntegerField(help_text="Finalist rank (1 = best score).")
    S = serializers.IntegerField()
    E = serializers.IntegerField()
    W = serializers.IntegerField()


class BigPrizePlanOut(serializers.Serializer):
    formula = serializers.CharField()
    finalists = serializers.IntegerField()
    common_positions = serializers.IntegerField()
    common_deals_per_position = serializers.IntegerField()
    final_positions = serializers.IntegerField()
    final_deals_per_position = serializers.IntegerField()
    positions = serializers.ListField(child=BigPrizeTableOut(many=True))
    finalist_entries = serializers.ListField(child=serializers.CharField(), allow_null=True)


class OffenceCostIn(serializers.Serializer):
    """An offence the arbiter is about to penalise (chapter 4)."""

    licence_number = serializers.IntegerField(min_value=1, max_value=2_147_483_647)
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    in_tournament = serializers.ListField(
        child=serializers.ChoiceField(choices=PENALTY_KINDS),
        default=list,
        max_length=200,
        help_text="The kinds of the offences already recorded against this player in this "
        "tournament (warnings included), in any order.",
    )


class OffenceCostOut(serializers.Serializer):
    kind = serializers.CharField()
    licence_number = serializers.IntegerField()
    repeat_scope = serializers.ChoiceField(
        choices=[s.value for s in RepeatScope],
        help_text="The season's rulebook setting arbitration.repeat_scope.",
    )
    offence_number = serializers.IntegerField(help_text="1: a first offence; 2+: a repeat.")
    repeat = serializers.BooleanField()
    points = serializers.IntegerField(
        allow_null=True,
        help_text="null: late arrival (by the lateness) or the arbiter's judgement.",
    )
    amount_rule = serializers.CharField()
    counted_in_tournament = serializers.IntegerField()
    counted_before = serializers.IntegerField(
        help_text="Offences in the season's earlier tournaments that count "
        "(same_fault_same_season only)."
    )
