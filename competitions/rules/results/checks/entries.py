"""Entries and players: numbers used once, teams of the format's size, each licence
number once and known to the registry (with the registry's name, or confirmed), the
penalties (on players of the results, of a known kind, amounts within the season's
schedule, repeats), and the minimum participation for homologation.

Sources: Fascicule 2, ch. 3 (penalties), ch. 5 (*Conditions pour l'homologation*).
"""

from __future__ import annotations

from competitions.rules.engine.penalties import (
    Penalty,
    PenaltyKind,
    penalty_problems,
    repeat_problems,
)
from competitions.rules.results.checks.run import (
    FORMAT_NAMES,
    CheckRun,
    licence_status,
    who,
)
from competitions.rules.results.document import EntryResult, PlayerResult
from competitions.rules.results.licences import LicenceStatus, NameConfirmation
from competitions.rules.results.names import same_name


def check_players(check: CheckRun) -> None:
    team = check.format.team_size
    numbers: dict[int, int] = {}
    for i, entry in enumerate(check.document.entries):
        at = f"entries[{i}]"
        if entry.number in numbers:
            check.error(
                f"{at}.number",
                "duplicate_entry_number",
                f"Entry number {entry.number} is already used at "
                f"{check.shown(f'entries[{numbers[entry.number]}]')}.",
                entry=entry.number,
            )
        else:
            numbers[entry.number] = i
        if len(entry.players) != team and not check.gaps.entry_incomplete(entry.number):
            check.error(
                f"{at}.players",
                "wrong_team_size",
                f"Entry {entry.number} has {len(entry.players)} player(s); an entry of a "
                f"{FORMAT_NAMES[check.format]} tournament has {team}.",
                entry=entry.number,
                players=len(entry.players),
                team=team,
            )
        for j, player in enumerate(entry.players):
            _check_player(check, entry, player, f"{at}.players[{j}]")
        if entry.arbiter_accord is not None and not entry.abandoned:
            check.error(
                f"{at}.arbiter_accord",
                "arbiter_accord_without_abandon",
                f"Entry {entry.number} did not abandon: the arbiter's accord is said only of an "
                "entry that left before the end.",
                entry=entry.number,
            )


def _check_player(check: CheckRun, entry: EntryResult, player: PlayerResult, where: str) -> None:
    number = player.licence_number
    if number is None:
        if not player.name.strip():
            check.error(
                f"{where}.name",
                "unidentified_player",
                f"A player of entry {entry.number} has neither licence number nor name.",
                entry=entry.number,
            )
        else:
            check.warn(
                f"{where}.licence_number",
                "no_licence_number",
                f"Player '{player.name}' of entry {entry.number} has no licence number: "
                f"ranked, but will get no points.",
                entry=entry.number,
                name=player.name,
            )
        return
    if number in check.player_at:
        check.error(
            f"{where}.licence_number",
            "duplicate_licence_number",
            f"Licence number {number} is entered twice (also at "
            f"{check.shown(check.player_at[number])}); a player takes part once.",
            licence_number=number,
        )
        return
    check.player_at[number] = where
    status = licence_status(check.licences, number)
    if status is LicenceStatus.UNKNOWN:
        check.error(
            f"{where}.licence_number",
            "unknown_licence_number",
            f"Licence number {who(player)} is not in the registry: correct it, or leave it "
            f"empty for a player without a licence (ranked, no points).",
            licence_number=number,
            name=player.name,
            as_named=f" ({player.name})" if player.name else "",
        )
        return
    _check_name(check, player, number, where)
    if status is LicenceStatus.NOT_LICENSED_THIS_SEASON:
        check.warn(
            f"{where}.licence_number",
            "not_licensed_this_season",
            f"Player {who(player)} has no licence for the tournament's season: ranked, but "
            f"will get no points.",
            licence_number=number,
            name=player.name,
            as_named=f" ({player.name})" if player.name else "",
        )


def _check_name(check: CheckRun, player: PlayerResult, number: int, where: str) -> None:
    """The name next to a licence number is the registry's (folded), or confirmed."""
    if check.registry_names is None or not player.name.strip():
        return
    registered = check.registry_names.get(number)
    if registered is None or same_name(player.name, registered):
        return
    if number in check.confirmed:
        check.confirmations.append(NameConfirmation(number, player.name, registered))
        return
    shown = check.names_shown.get(number, registered)  # never a name the reader may not read
    check.error(
        f"{where}.licence_number",
        "licence_name_mismatch",
        f"Licence number {number} is {shown}'s in the registry, not {player.name}'s: "
        f"correct the number, or confirm that it is this person.",
        licence_number=number,
        name=player.name,
        registry_name=shown,
    )


def check_penalties(check: CheckRun) -> None:
    judged: list[tuple[int, Penalty]] = []  # penalties of a known kind, for the repeats
    for k, penalty in enumerate(check.document.penalties):
        at = f"penalties[{k}]"
        if penalty.licence_number not in check.player_at and not check.gaps.entries_incomplete:
            check.error(
                f"{at}.licence_number",
                "penalty_player_not_in_results",
                f"The penalty hits licence number {penalty.licence_number}, who is not a player "
                f"of these results.",
                licence_number=penalty.licence_number,
            )
        if penalty.points < 0:
            check.error(
                f"{at}.points",
                "negative_number",
                f"A penalty takes points off a total, so it cannot be {penalty.points}.",
                value=penalty.points,
            )
            continue
        check.penalty_points[penalty.licence_number] += penalty.points
        try:
            kind = PenaltyKind(penalty.kind)
        except ValueError:
            check.error(
                f"{at}.kind",
                "unknown_penalty_kind",
                f"{penalty.kind!r} is not a kind of penalty; the kinds are: "
                f"{', '.join(k.value for k in PenaltyKind)}.",
                value=str(penalty.kind),
                kinds=", ".join(k.value for k in PenaltyKind),
            )
            continue
        record = Penalty(str(penalty.licence_number), kind, penalty.points, penalty.reason or "-")
        judged.append((k, record))
        for problem in penalty_problems(record, check.schedule, at):
            if problem.code == "amount_not_in_schedule":
                check.warn(
                    f"{at}.points",
                    "penalty_amount_not_in_schedule",
                    f"{problem.message} The amount is kept as recorded by the arbiter.",
                    points=penalty.points,
                    kind=str(kind),
                )
    earlier = {str(n): offences for n, offences in check.earlier_offences.items()}
    records = [record for _, record in judged]
    for problem in repeat_problems(
        records, scope=check.repeat_scope, earlier=earlier, schedule=check.schedule
    ):
        index = int(problem.field.split("[", 1)[1].split("]", 1)[0])
        k = judged[index][0]
        check.warn(
            f"penalties[{k}].points",
            problem.code,
            f"{problem.message} The amount is kept as recorded by the arbiter.",
            **problem.params,
        )


def check_participation(check: CheckRun, minimum: int) -> None:
    count = len(check.document.entries)
    if count < minimum and not check.entry_missing():
        check.error(
            "entries",
            "below_minimum_participation",
            f"{count} entries took part; a {FORMAT_NAMES[check.format]} tournament is "
            f"homologated from {minimum} (chapter 5, 'Conditions pour l'homologation').",
            count=count,
            minimum=minimum,
        )
