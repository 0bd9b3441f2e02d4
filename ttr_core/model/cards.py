"""Train-card colours and the compact encodings the engine uses for them.

Cards are small integers: the eight colours 0-7 and the locomotive 8. A hand, a
discard pile or a payment is a tuple of nine counts indexed by those integers.
Routes use the same colour numbers, with 8 standing for gray.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

COLOR_NAMES: tuple[str, ...] = (
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "pink",
    "black",
    "white",
)
"""The eight train-card colours, in the engine's index order."""

LOCO: Final = 8
"""Index of the locomotive card in a card-count tuple."""

GRAY: Final = 8
"""Colour index of a gray route (shares the index of the locomotive card)."""

CARD_NAMES: tuple[str, ...] = (*COLOR_NAMES, "locomotive")
"""Names of the nine card kinds, indexed by card number."""

ROUTE_COLOR_NAMES: tuple[str, ...] = (*COLOR_NAMES, "gray")
"""Names of the nine route colours, indexed by route colour number."""

NUM_KINDS: Final = 9
EMPTY: tuple[int, ...] = (0,) * NUM_KINDS

_CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
_ROUTE_COLOR_INDEX = {name: i for i, name in enumerate(ROUTE_COLOR_NAMES)}


def card_index(name: str) -> int:
    """Return the card number of a card name such as ``"red"`` or ``"locomotive"``."""
    try:
        return _CARD_INDEX[name]
    except KeyError:
        raise ValueError(
            f"unknown card {name!r}; expected one of {', '.join(CARD_NAMES)}"
        ) from None


def route_color_index(name: str) -> int:
    """Return the route colour number of a name such as ``"blue"`` or ``"gray"``."""
    try:
        return _ROUTE_COLOR_INDEX[name]
    except KeyError:
        raise ValueError(
            f"unknown route colour {name!r}; expected one of {', '.join(ROUTE_COLOR_NAMES)}"
        ) from None


def counts_from_mapping(cards: Mapping[str, object]) -> tuple[int, ...]:
    """Turn ``{"red": 2, "locomotive": 1}`` into a nine-count tuple (zeros may be left out).

    The counts are typed ``object`` since they are checked here: a count that is not a
    non-negative ``int`` raises the same ``ValueError`` in the compiled build.
    """
    counts = [0] * NUM_KINDS
    for name, n in cards.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError(f"card count for {name!r} must be a non-negative integer, got {n!r}")
        i = card_index(name)
        counts[i] = counts[i] + n
    return tuple(counts)


def counts_to_mapping(counts: tuple[int, ...]) -> dict[str, int]:
    """Turn a nine-count tuple into ``{name: count}``, leaving out zero counts."""
    return {CARD_NAMES[i]: n for i, n in enumerate(counts) if n}


def describe(counts: tuple[int, ...]) -> str:
    """A short human description of a card-count tuple, e.g. ``2 red + 1 locomotive``."""
    parts = [f"{n} {CARD_NAMES[i]}" for i, n in enumerate(counts) if n]
    return " + ".join(parts) if parts else "no cards"
