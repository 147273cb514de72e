"""The name next to a licence number, compared with the registry's once folded."""

from __future__ import annotations

import pytest

from competitions.rules.results.names import folded, same_name


@pytest.mark.parametrize(
    "written",
    [
        "DUPONT Jean-Éric",
        "Jean-Éric Dupont",
        "dupont jean eric",
        "DUPONT  Jean Eric",
        "Jean Éric DUPONT",
        "DUPONT Jean-Eric.",
    ],
)
def test_accents_case_order_and_hyphens_do_not_matter(written):
    assert same_name(written, "DUPONT Jean-Éric")


@pytest.mark.parametrize(
    "written",
    ["DUPONT Jean", "DUPOND Jean-Éric", "MARTIN Luc", "", "   "],
)
def test_another_name_or_no_name_is_not_the_same(written):
    assert not same_name(written, "DUPONT Jean-Éric")


def test_ligatures_and_apostrophes_fold_too():
    assert folded("D’ŒUVRE Anne") == folded("d oeuvre anne") == ("anne", "d", "oeuvre")
