"""A revoke in defence (*renonce consommée en défense*) on a score sheet: the taker's choice.

Chapter 1, « La distribution » (fasc. 214): « Dans le cas d'une RC en défense, en cas de
chute, le preneur a le choix de faire marquer ou non le score »; chapter 4, « Renonce »
(fasc. 1394–1400): « Les points illicitement gagnés sont rendus au camp non fautif : de plus
si le camp fautif est gagnant la donne est annulée, si le camp fautif est perdant la donne
est comptabilisée » and « Dans le cas d'une renonce consommée en défense, le preneur a le
choix de faire marquer ou non le score quel que soit le résultat », and « Un joueur qui fait
une renonce consommée en défense ne peut pas annoncer de contrat à la distribution
suivante ». Article 28 (« la marque »): North writes the sheet.

A sheet's line records the revoke with the taker's choice (:class:`DefenceRevoke`):

- ``scored``: the deal is scored from its facts as recorded (the points illicitly won
  already given back to the attack, docs/engine-scoring.md reading 20);
- ``not_scored``: the taker declines the score: the deal is annulled at his choice, it
  marks 0 for everyone and, like a deal the arbiter annulled, is not a deal played (its
  contract is not a contract made).

The choice is the taker's whatever the result (chapter 4, the arbitration code, which
widens chapter 1's « en cas de chute »). The revoker (``by``, optional: a paper sheet may
not say who) is a defender; he may not be the taker of the next line of the sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from competitions.rules.engine.scoring import Deal, EnumT, shown
from competitions.rules.engine.tables import Orientation
from core.problems import Problem


class TakerChoice(StrEnum):
    """What the taker chose after a revoke in defence."""

    SCORED = "scored"  # faire marquer le score
    NOT_SCORED = "not_scored"  # ne pas faire marquer le score: the deal is annulled


@dataclass(frozen=True, slots=True)
class DefenceRevoke:
    """A revoke in defence on one deal: the taker's choice and, if known, the revoker."""

    taker_choice: TakerChoice
    by: Orientation | None = None  # the defender who revoked


def revoke_problems(
    revoke: DefenceRevoke,
    *,
    index: int,
    facts: Deal | None,
    annulled: bool,
    table: Sequence[Orientation],
) -> list[Problem]:
    """Every problem of the revoke recorded on line ``index``.

    ``table``: the seats playing the deal (the four in play at a table of 5 with a mort).
    """
    where = f"deals[{index}].defence_revoke"
    problems: list[Problem] = []
    if _member(TakerChoice, revoke.taker_choice) is None:
        problems.append(
            Problem(
                f"{where}.taker_choice",
                "unknown_revoke_choice",
                f"Deal {index + 1}: {shown(revoke.taker_choice)} is not a choice of the taker; "
                f"one of: {', '.join(TakerChoice)}.",
                {"deal": index + 1, "value": shown(revoke.taker_choice)},
            )
        )
    if annulled:
        problems.append(
            Problem(
                where,
                "revoke_on_annulled_deal",
                f"Deal {index + 1} is annulled by the arbiter: there is no score for the taker "
                "to choose after a revoke.",
                {"deal": index + 1},
            )
        )
    if facts is not None and facts.contract is None:
        problems.append(
            Problem(
                where,
                "revoke_on_passed_deal",
                f"Deal {index + 1}: everyone passed, so nobody played a card and nobody revoked.",
                {"deal": index + 1},
            )
        )
        return problems
    if revoke.by is None:
        return problems
    seat = _member(Orientation, revoke.by)
    if seat is None or seat not in table:
        problems.append(
            Problem(
                f"{where}.by",
                "revoke_seat_not_in_play",
                f"Deal {index + 1}: {shown(revoke.by)} is not a seat playing this deal "
                f"({', '.join(table)}).",
                {"deal": index + 1, "seat": shown(revoke.by), "seats": ", ".join(table)},
            )
        )
    elif facts is not None and seat in (facts.taker, facts.called_partner):
        problems.append(
            Problem(
                f"{where}.by",
                "revoke_not_by_defender",
                f"Deal {index + 1}: {seat} is in the attack; only a revoke in defence leaves "
                "the taker a choice.",
                {"deal": index + 1, "seat": seat},
            )
        )
    return problems


def next_deal_problems(
    revokes: Sequence[DefenceRevoke | None], takers: Sequence[Orientation | None]
) -> list[Problem]:
    """« ne peut pas annoncer de contrat à la distribution suivante »: the revoker of a line
    is not the taker of the next line (a sheet's lines are its deals in order)."""
    problems = []
    for index in range(len(revokes) - 1):
        revoke = revokes[index]
        if revoke is None or revoke.by is None:
            continue
        taker = takers[index + 1]
        if taker is not None and _member(Orientation, taker) == _member(Orientation, revoke.by):
            problems.append(
                Problem(
                    f"deals[{index + 1}].taker",
                    "revoker_took_next_deal",
                    f"Deal {index + 2}: {taker} revoked in defence on deal {index + 1} and so "
                    "could not bid on the next deal.",
                    {"deal": index + 2, "seat": str(taker), "revoke_deal": index + 1},
                )
            )
    return problems


def not_scored(revoke: DefenceRevoke | None) -> bool:
    """The taker declined the score: the line marks 0 and is not a deal played."""
    return revoke is not None and revoke.taker_choice == TakerChoice.NOT_SCORED


def _member(enum: type[EnumT], value: object) -> EnumT | None:
    try:
        return enum(value)  # type: ignore[arg-type]  # any value may be looked up
    except (ValueError, TypeError):
        return None
