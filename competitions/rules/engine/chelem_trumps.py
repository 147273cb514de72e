"""Which poignées a chelem leaves possible: the trumps the losing side must play.

Source: fascicule 2, chapter 1 ("La poignée", "Le chelem", "Le jeu de la carte"). A side
takes every trick (chelem) only if each trick in which the other side plays a trump holds a
higher trump of its own. Every card of a hand is played, one a trick, so a losing player
holding ``r`` trumps plays them in ``r`` different tricks, each needing a trump of the
winning side: the winning side holds at least as many trumps as any one losing player,
and the 21 trumps are shared (the excuse is no trump: it never wins a trick). With ``m``
the most trumps one losing player holds, ``L`` all the losing side's trumps and ``W`` the
winning side's::

    W ≥ m  and  W + L ≤ 21,   so   max(m, W) + L ≤ 21

is necessary; it is also enough as far as the trumps go: give the winning side the highest
trumps and let it lead them (any seat may lead first, the deal rotating): each lead draws
one trump from every losing player still holding one, so ``m`` leads draw them all.

A poignée tells how many trumps its player holds at least (chapter 1: « l'excuse peut
remplacer un atout manquant mais la présentation de l'excuse dans la poignée implique que
l'annonceur n'a pas d'autre atout »): ``k`` cards shown are ``k`` trumps or more, or exactly
``k − 1`` trumps and the excuse, which only one poignée of a deal can hold. So a chelem is
refused when, wherever the excuse may be, the poignées shown break the inequality. At the
default sizes this refuses exactly: a chelem against a poignée of 12 cards or more (13 at
3 players, the 4-player double and triple, the 5-player triple: 11 trumps at least, and
11 + 11 > 21), and a chelem against two poignées of the losing side (4 players 10 + 10:
19 trumps at least, leaving the winner 2, fewer than 10; 5 players any two, the smallest
8 + 8 leaving 6, fewer than 8).
See ``docs/engine-scoring.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

TRUMPS = 21  # the excuse is not a trump: it never wins a trick


def chelem_allows_poignees(
    losing: Sequence[int],
    winning: Sequence[int],
    *,
    excuse_may_be_with_losers: bool = True,
    excuse_may_be_with_winners: bool = True,
) -> bool:
    """Whether some deal gives the winning side every trick with these poignées shown.

    ``losing`` and ``winning``: the cards each poignée of that side showed (trumps, the
    excuse standing in for one). ``excuse_may_be_with_losers`` is false when the deal's
    count shows that no losing player held the excuse (then no losing poignée holds it);
    ``excuse_may_be_with_winners`` likewise for the winning side.
    """
    placements: list[tuple[int, int] | None] = [None]  # (side, index) of the excuse's poignée
    if excuse_may_be_with_losers:
        placements += [(0, i) for i in range(len(losing))]
    if excuse_may_be_with_winners:
        placements += [(1, i) for i in range(len(winning))]
    for placement in placements:
        losers = [k - (placement == (0, i)) for i, k in enumerate(losing)]
        winners = [k - (placement == (1, i)) for i, k in enumerate(winning)]
        most = max(losers, default=0)
        if max(most, sum(winners)) + sum(losers) <= TRUMPS:
            return True
    return False
