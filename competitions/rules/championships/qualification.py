"""Who is qualified for a national final and for next season's regional final, by which right.

Chapter 3 of the fascicule 2:

- each committee's regional final « qualifie les mieux classés pour la finale nationale »;
  the number per committee « est fixé auparavant par la CCN » (articles 1, 7, 13, 18);
- the outgoing national champion (player, duo, team) is « directement qualifié pour la
  finale nationale » (articles 5, 11, 16, 22); the interclubs team only if it still meets
  the composition criteria;
- the national qualifier, the day before the final, qualifies its first 80 players, 40
  duos, 50 seniors (articles 4, 10, 21); there is none for the interclubs;
- « Un joueur qualifié pour la finale nationale qui dispute ce qualificatif national perd
  sa qualification ; la place qui lui était réservée est réattribuée lors de ce
  qualificatif national »;
- the regional champion is « qualifié d'office pour la finale régionale de la saison
  suivante » if still in the same committee (individual, seniors, both DUO players) or,
  interclubs, if the four are still in the same club and still a valid composition;
- the interclubs team keeps « le classement, le comité et le club d'appartenance du jour
  de leur qualification » (article 16): its :class:`TeamSnapshot` travels with it.

Rankings come in with places in the « 1224 » convention, article-29 tie-breaks already
applied upstream. A tie that still straddles the last qualifying place is not broken
here: the tied entries are listed and the places are reported open for the CCN to settle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.player_facts import PlayerFacts
from competitions.rules.championships.team_composition import (
    TeamSnapshot,
    composition_allowed,
    composition_problems,
)
from core.problems import Problem, RuleViolation
from core.vocabulary import ChampionshipKind, StageKind


class QualificationRight(StrEnum):
    """By which right an entry is qualified."""

    COMMITTEE_QUOTA = "committee_quota"
    """Among the best of its committee's regional final, within the CCN quota."""
    OUTGOING_NATIONAL_CHAMPION = "outgoing_national_champion"
    NATIONAL_QUALIFIER = "national_qualifier"
    """Within the first N of the national qualifier."""
    REATTRIBUTED_PLACE = "reattributed_place"
    """Beyond the first N of the national qualifier, on a place given up by a qualified
    entry that played the qualifier."""
    REGIONAL_CHAMPION = "regional_champion"
    """Last season's regional champion, for this season's regional final."""


class OpenReason(StrEnum):
    """Why places are not yet attributed."""

    REGIONAL_FINAL_PENDING = "regional_final_pending"
    NATIONAL_QUALIFIER_PENDING = "national_qualifier_pending"
    TIE_AT_BOUNDARY = "tie_at_boundary"
    TOO_FEW_ENTRIES = "too_few_entries"


@dataclass(frozen=True, slots=True)
class Entry:
    """A player, duo or team; two entries with the same players are the same entry."""

    entry_id: str
    licence_numbers: tuple[str, ...]
    team: TeamSnapshot | None = None
    """Interclubs: the team as it stood on its qualification day (required)."""

    @property
    def players(self) -> frozenset[str]:
        return frozenset(self.licence_numbers)


@dataclass(frozen=True, slots=True)
class Standing:
    """An entry's place in a final ranking (« 1224 »: tied entries share the better place)."""

    entry: Entry
    place: int


@dataclass(frozen=True, slots=True)
class Qualification:
    """An entry qualified for ``stage`` by ``right``."""

    entry: Entry
    right: QualificationRight
    stage: StageKind
    committee: str | None = None
    place: int | None = None
    """The place that gave the right, when it came from a ranking."""


@dataclass(frozen=True, slots=True)
class LostQualification:
    """A qualification given up because the entry played the national qualifier."""

    qualification: Qualification
    message: str


@dataclass(frozen=True, slots=True)
class OpenPlaces:
    """Places not yet attributed: whose they are, how many, why."""

    right: QualificationRight
    committee: str | None
    count: int
    reason: OpenReason
    tied: tuple[str, ...] = ()
    """Entry ids tied across the last place, for ``tie_at_boundary``."""


@dataclass(frozen=True, slots=True)
class NationalFinalQualification:
    """The state of qualification for one national final, as far as results are known."""

    kind: ChampionshipKind
    qualified: tuple[Qualification, ...]
    lost: tuple[LostQualification, ...]
    open_places: tuple[OpenPlaces, ...]
    problems: tuple[Problem, ...]
    """Direct rights refused, players found in two qualified entries: for staff to settle."""

    @property
    def open_count(self) -> int:
        return sum(o.count for o in self.open_places)


def qualify_for_national_final(
    kind: ChampionshipKind,
    rules: ChampionshipRules,
    quotas: Mapping[str, int],
    regional_finals: Mapping[str, Sequence[Standing]],
    outgoing_champion: Entry | None = None,
    national_qualifier: Sequence[Standing] | None = None,
) -> NationalFinalQualification:
    """Qualified entries, lost qualifications and open places for a national final.

    ``quotas`` maps each committee to its number of places (CCN); ``regional_finals``
    maps a committee to its regional final ranking, absent while not played;
    ``national_qualifier`` is its ranking, ``None`` while not played. Raises
    ``RuleViolation`` on malformed input (places not in the 1224 convention, a ranked
    committee without quota, an interclubs entry without snapshot, ...).
    """
    kind = ChampionshipKind(kind)
    _raise_on_bad_input(kind, rules, quotas, regional_finals, outgoing_champion, national_qualifier)
    qualified, problems = _outgoing_champion_right(kind, rules, outgoing_champion)
    open_places: list[OpenPlaces] = []
    direct = {q.entry.players for q in qualified}
    for committee in sorted(quotas):
        taken, still_open = _committee_places(
            committee, quotas[committee], regional_finals.get(committee), direct
        )
        qualified += taken
        open_places += still_open

    lost: list[LostQualification] = []
    base = rules.national_qualifier_quota
    if base is not None and national_qualifier is None:
        open_places.append(
            OpenPlaces(
                QualificationRight.NATIONAL_QUALIFIER,
                None,
                base,
                OpenReason.NATIONAL_QUALIFIER_PENDING,
            )
        )
    elif base is not None and national_qualifier is not None:
        qualified, lost = _forfeit_if_played(qualified, national_qualifier)
        taken, still_open = _qualifier_places(national_qualifier, base, len(lost))
        qualified += taken
        open_places += still_open

    problems += _players_in_two_entries(qualified)
    return NationalFinalQualification(
        kind, tuple(qualified), tuple(lost), tuple(open_places), tuple(problems)
    )


def _outgoing_champion_right(
    kind: ChampionshipKind, rules: ChampionshipRules, champion: Entry | None
) -> tuple[list[Qualification], list[Problem]]:
    """The outgoing champion's direct right; an interclubs team must still be a valid
    composition (article 16), judged on the series in ``champion.team``."""
    if champion is None:
        return [], []
    team = champion.team
    if kind is ChampionshipKind.INTERCLUBS and not (
        team is not None and composition_allowed(team.series, rules)
    ):
        return [], [
            Problem(
                "outgoing_champion.team.series",
                "composition_not_allowed",
                f"outgoing champion team {champion.entry_id}: series "
                f"{team.series if team else None} no longer make an allowed composition, "
                "so it is not directly qualified.",
                {"team": champion.entry_id},
            )
        ]
    right = QualificationRight.OUTGOING_NATIONAL_CHAMPION
    return [Qualification(champion, right, StageKind.NATIONAL_FINAL)], []


def _committee_places(
    committee: str,
    quota: int,
    ranking: Sequence[Standing] | None,
    direct: set[frozenset[str]],
) -> tuple[list[Qualification], list[OpenPlaces]]:
    """The committee's quota filled from its regional final, skipping entries that
    already hold a direct right."""
    right = QualificationRight.COMMITTEE_QUOTA
    if ranking is None:
        pending = OpenPlaces(right, committee, quota, OpenReason.REGIONAL_FINAL_PENDING)
        return [], [pending] if quota else []
    candidates = [s for s in _ordered(ranking) if s.entry.players not in direct]
    taken, still_open = _take_best(candidates, quota, right, committee)
    qualified = [
        Qualification(s.entry, right, StageKind.NATIONAL_FINAL, committee, s.place) for s in taken
    ]
    return qualified, still_open


def _forfeit_if_played(
    qualified: list[Qualification], national_qualifier: Sequence[Standing]
) -> tuple[list[Qualification], list[LostQualification]]:
    """« Un joueur qualifié ... qui dispute ce qualificatif national perd sa qualification »:
    an entry loses its place if any of its players plays the qualifier."""
    played = {n for s in national_qualifier for n in s.entry.licence_numbers}
    kept: list[Qualification] = []
    lost: list[LostQualification] = []
    for q in qualified:
        who = sorted(q.entry.players & played)
        if not who:
            kept.append(q)
            continue
        lost.append(
            LostQualification(
                q,
                f"entry {q.entry.entry_id} ({q.right}) loses its qualification: licence "
                f"{', '.join(who)} played the national qualifier; the place is reattributed "
                "at the national qualifier.",
            )
        )
    return kept, lost


def _qualifier_places(
    national_qualifier: Sequence[Standing], base: int, given_back: int
) -> tuple[list[Qualification], list[OpenPlaces]]:
    """The first ``base`` of the qualifier, plus the ``given_back`` places reattributed."""
    taken, still_open = _take_best(
        _ordered(national_qualifier), base + given_back, QualificationRight.NATIONAL_QUALIFIER
    )
    qualified = [
        Qualification(
            s.entry,
            QualificationRight.NATIONAL_QUALIFIER
            if s.place <= base
            else QualificationRight.REATTRIBUTED_PLACE,
            StageKind.NATIONAL_FINAL,
            None,
            s.place,
        )
        for s in taken
    ]
    return qualified, still_open


def _ordered(standings: Sequence[Standing]) -> list[Standing]:
    return sorted(standings, key=lambda s: s.place)


def _take_best(
    candidates: list[Standing],
    places: int,
    right: QualificationRight,
    committee: str | None = None,
) -> tuple[list[Standing], list[OpenPlaces]]:
    """The best ``places`` candidates, and what stays open (too few, or a tie across the line)."""
    if places <= 0:
        return [], []
    if len(candidates) <= places:
        missing = places - len(candidates)
        return candidates, (
            [OpenPlaces(right, committee, missing, OpenReason.TOO_FEW_ENTRIES)] if missing else []
        )
    line = candidates[places - 1].place
    if candidates[places].place != line:
        return candidates[:places], []
    taken = [s for s in candidates if s.place < line]
    tied = tuple(s.entry.entry_id for s in candidates if s.place == line)
    return taken, [
        OpenPlaces(right, committee, places - len(taken), OpenReason.TIE_AT_BOUNDARY, tied)
    ]


def _players_in_two_entries(qualified: Sequence[Qualification]) -> list[Problem]:
    counts = Counter(n for q in qualified for n in q.entry.players)
    return [
        Problem(
            "qualified",
            "player_qualified_twice",
            f"licence {n} is in {c} qualified entries; a player takes one place in the final.",
            {"licence": n, "count": c},
        )
        for n, c in sorted(counts.items())
        if c > 1
    ]


def _raise_on_bad_input(
    kind: ChampionshipKind,
    rules: ChampionshipRules,
    quotas: Mapping[str, int],
    regional_finals: Mapping[str, Sequence[Standing]],
    outgoing_champion: Entry | None,
    national_qualifier: Sequence[Standing] | None,
) -> None:
    if rules.kind != kind:
        raise ValueError(f"rules for {rules.kind} given to qualify a {kind} championship")
    problems: list[Problem] = []
    for committee, quota in quotas.items():
        if quota < 0:
            problems.append(
                Problem(
                    f"quotas.{committee}",
                    "negative_quota",
                    f"quota {quota} is below 0.",
                    {"quota": quota, "committee": committee},
                )
            )
    seen: dict[frozenset[str], str] = {}
    for committee, ranking in regional_finals.items():
        if committee not in quotas:
            problems.append(
                Problem(
                    f"regional_finals.{committee}",
                    "no_quota",
                    f"committee {committee} has a regional final ranking but no quota from "
                    "the CCN.",
                    {"committee": committee},
                )
            )
        problems += _ranking_problems(ranking, f"regional_finals.{committee}", kind)
        for i, s in enumerate(ranking):
            other = seen.setdefault(s.entry.players, committee)
            if other != committee:
                problems.append(
                    Problem(
                        f"regional_finals.{committee}[{i}]",
                        "ranked_in_two_committees",
                        f"entry {s.entry.entry_id} is also ranked in committee {other}.",
                        {"entry": s.entry.entry_id, "other": other},
                    )
                )
    if national_qualifier is not None:
        if rules.national_qualifier_quota is None:
            problems.append(
                Problem(
                    "national_qualifier",
                    "no_national_qualifier",
                    f"The {kind} championship has no national qualifier.",
                    {"kind": kind},
                )
            )
        problems += _ranking_problems(national_qualifier, "national_qualifier", kind)
    if outgoing_champion is not None:
        problems += _entry_problems(outgoing_champion, "outgoing_champion", kind)
    if problems:
        raise RuleViolation(problems)


def _ranking_problems(
    ranking: Sequence[Standing], field: str, kind: ChampionshipKind
) -> list[Problem]:
    problems: list[Problem] = []
    places = sorted(s.place for s in ranking)
    for i, place in enumerate(places):
        if place != i + 1 and (i == 0 or place != places[i - 1]):
            problems.append(
                Problem(
                    field,
                    "places_not_1224",
                    f"places {places} do not follow the 1224 convention (place {i + 1} "
                    f"expected or a tie with the previous one, got {place}).",
                    {"expected": i + 1, "place": place},
                )
            )
            break
    counts = Counter(s.entry.players for s in ranking)
    for i, s in enumerate(ranking):
        if counts[s.entry.players] > 1:
            problems.append(
                Problem(
                    f"{field}[{i}]",
                    "ranked_twice",
                    f"entry {s.entry.entry_id} appears more than once in the ranking.",
                    {"entry": s.entry.entry_id},
                )
            )
        problems += _entry_problems(s.entry, f"{field}[{i}].entry", kind)
    return problems


def _entry_problems(entry: Entry, field: str, kind: ChampionshipKind) -> list[Problem]:
    problems: list[Problem] = []
    if len(entry.players) != kind.team_size:
        problems.append(
            Problem(
                f"{field}.licence_numbers",
                "wrong_team_size",
                f"entry {entry.entry_id}: {len(entry.players)} distinct player(s), a {kind} "
                f"entry has {kind.team_size}.",
                {"entry": entry.entry_id, "players": len(entry.players), "size": kind.team_size},
            )
        )
    if kind is ChampionshipKind.INTERCLUBS and entry.team is None:
        problems.append(
            Problem(
                f"{field}.team",
                "snapshot_missing",
                f"team {entry.entry_id}: an interclubs qualification keeps the team's club, "
                "committee and series of its qualification day; none was given.",
                {"team": entry.entry_id},
            )
        )
    return problems


@dataclass(frozen=True, slots=True)
class RegionalTitle:
    """A committee's regional champion of one season (« champion régional »)."""

    committee: str
    entry: Entry


def regional_title(committee: str, ranking: Sequence[Standing]) -> RegionalTitle | None:
    """The regional champion: the one entry placed first; ``None`` if none or a tie remains."""
    first = [s for s in ranking if s.place == 1]
    return RegionalTitle(committee, first[0].entry) if len(first) == 1 else None


@dataclass(frozen=True, slots=True)
class RegionalFinalCarryOver:
    """Last season's regional champions qualified for this season's regional final, or why not."""

    qualified: tuple[Qualification, ...]
    refused: tuple[Problem, ...]


def carry_over_regional_champions(
    kind: ChampionshipKind,
    rules: ChampionshipRules,
    titles: Sequence[RegionalTitle],
    players_now: Mapping[str, PlayerFacts],
) -> RegionalFinalCarryOver:
    """Apply « qualifié d'office pour la finale régionale de la saison suivante ».

    ``players_now`` gives each champion's facts for the new season. Individual and
    seniors: the player is licensed in the same committee; DUO: both are; interclubs:
    the four are licensed in the club the team played for (``entry.team.club``) and
    their current series still make an allowed composition.
    """
    kind = ChampionshipKind(kind)
    qualified: list[Qualification] = []
    refused: list[Problem] = []
    for i, title in enumerate(titles):
        problems = _carry_over_problems(kind, rules, title, players_now, f"titles[{i}]")
        if problems:
            refused += problems
        else:
            qualified.append(
                Qualification(
                    title.entry,
                    QualificationRight.REGIONAL_CHAMPION,
                    StageKind.REGIONAL_FINAL,
                    title.committee,
                    1,
                )
            )
    return RegionalFinalCarryOver(tuple(qualified), tuple(refused))


def _carry_over_problems(
    kind: ChampionshipKind,
    rules: ChampionshipRules,
    title: RegionalTitle,
    players_now: Mapping[str, PlayerFacts],
    field: str,
) -> list[Problem]:
    problems = _entry_problems(title.entry, f"{field}.entry", kind)
    if problems:
        return problems
    facts: list[PlayerFacts] = []
    for j, number in enumerate(title.entry.licence_numbers):
        where = f"{field}.entry.licence_numbers[{j}]"
        player = players_now.get(number)
        if player is None or player.licence is None:
            problems.append(
                Problem(
                    where,
                    "not_licensed",
                    f"regional champion {title.entry.entry_id}: licence {number} is not "
                    "licensed this season.",
                    {"entry": title.entry.entry_id, "licence": number},
                )
            )
            continue
        facts.append(player)
        if kind is ChampionshipKind.INTERCLUBS:
            club = title.entry.team.club if title.entry.team else None
            if player.licence.club != club:
                problems.append(
                    Problem(
                        where,
                        "left_club",
                        f"regional champion team {title.entry.entry_id}: licence {number} is "
                        f"now in club {player.licence.club}, not {club}.",
                        {
                            "entry": title.entry.entry_id,
                            "licence": number,
                            "club": player.licence.club,
                            "previous": club,
                        },
                    )
                )
        elif player.licence.committee != title.committee:
            problems.append(
                Problem(
                    where,
                    "left_committee",
                    f"regional champion {title.entry.entry_id}: licence {number} is now in "
                    f"committee {player.licence.committee}, not {title.committee}.",
                    {
                        "entry": title.entry.entry_id,
                        "licence": number,
                        "committee": player.licence.committee,
                        "previous": title.committee,
                    },
                )
            )
    if kind is ChampionshipKind.INTERCLUBS and not problems:
        problems += composition_problems(facts, rules, f"{field}.entry.licence_numbers")
    return problems
