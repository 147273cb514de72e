"""Is the name in a results file the name the registry holds for its licence number?

Names are compared *folded*: accents, case, hyphens, apostrophes and dots ignored, and
the order of the words too ("Dupont Jean", "JEAN DUPONT", "Dupont-Jean", "dupont jéan"
are one name). A mistyped licence number that happens to be another player's is then
caught by the name next to it (``docs/results-format.md``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_SEPARATORS = re.compile(r"[\s\-‐‑‒–—'’.,_]+")


@lru_cache(maxsize=65536)
def folded(name: str) -> tuple[str, ...]:
    """The words of ``name`` without accents, in lower case, sorted (kept for the next
    time: a season's file names its players again and again)."""
    if name.isascii():  # nothing to decompose, no accent, no ligature: the same result
        letters = name.casefold()
    else:
        decomposed = unicodedata.normalize("NFKD", name)
        letters = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
        letters = letters.replace("œ", "oe").replace("æ", "ae").replace("ß", "ss")
    return tuple(sorted(word for word in _SEPARATORS.split(letters) if word))


def same_name(in_file: str, in_registry: str) -> bool:
    """Whether the two names are the same once folded (an empty name is no name)."""
    words = folded(in_file)
    return bool(words) and words == folded(in_registry)
