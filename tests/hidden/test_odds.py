"""Tunnel odds: the exact law of a tunnel's extra cards, from two numbers and from a
player's view, and ``ttr odds tunnel``."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve

from ttr_core import Ruleset, ViewError
from ttr_core.cli import main
from ttr_core.hidden.odds import cumulative, tunnel_extra_odds, tunnel_odds_for_view
from ttr_core.rules.index import index_of
from ttr_core.rules.views import PlayerView, view_of
from ttr_core.testing.scenarios import arrange, cards, started, with_player

R, G, B, K, W, L = 0, 3, 4, 6, 7, 8


@pytest.fixture(scope="module")
def europe() -> Ruleset:
    return Ruleset.build("europe")


def hypergeometric(pool: int, matching: int, k: int, n: int = 3) -> Fraction:
    return Fraction(comb(matching, k) * comb(pool - matching, n - k), comb(pool, n))


# -- from two numbers -----------------------------------------------------------------------


@pytest.mark.parametrize(("pool", "matching"), [(108, 24), (110, 26), (50, 0), (7, 7), (3, 1)])
def test_odds_are_the_hypergeometric_law(pool: int, matching: int) -> None:
    """TUNNEL-3 / TUNNEL-4: 3 cards from the pool; the chance of k matching cards."""
    odds = tunnel_extra_odds(pool, matching)
    assert all(isinstance(p, Fraction) for p in odds)
    assert odds == tuple(hypergeometric(pool, matching, k) for k in range(4))
    assert sum(odds) == 1


def test_odds_of_a_known_case() -> None:
    """TUNNEL-4: 108 unseen, 24 matching: no extra card with 84*83*82 / (108*107*106)."""
    odds = tunnel_extra_odds(108, 24)
    assert odds[0] == Fraction(84 * 83 * 82, 108 * 107 * 106)
    assert odds[3] == Fraction(24 * 23 * 22, 108 * 107 * 106)


@pytest.mark.parametrize(
    ("pool", "matching", "expected"),
    [
        (0, 0, (1, 0, 0, 0)),
        (1, 1, (0, 1, 0, 0)),
        (1, 0, (1, 0, 0, 0)),
        (2, 1, (0, 1, 0, 0)),
        (2, 2, (0, 0, 1, 0)),
        (3, 3, (0, 0, 0, 1)),
    ],
)
def test_tunnel_9_small_pools_reveal_what_there_is(
    pool: int, matching: int, expected: tuple[int, ...]
) -> None:
    """TUNNEL-9: with fewer than 3 cards only those are revealed; with none, no extra."""
    assert tunnel_extra_odds(pool, matching) == tuple(Fraction(x) for x in expected)


def test_other_reveal_sizes() -> None:
    """The reveal size is a parameter: the result has one entry more than it."""
    assert tunnel_extra_odds(10, 4, reveal=1) == (Fraction(6, 10), Fraction(4, 10))
    assert len(tunnel_extra_odds(10, 4, reveal=5)) == 6
    assert sum(tunnel_extra_odds(10, 4, reveal=5)) == 1


@pytest.mark.parametrize(
    ("pool", "matching", "reveal"),
    [
        (-1, 0, 3),
        (5, -1, 3),
        (5, 6, 3),
        (5, 2, -1),
        (5.0, 2, 3),
        (5, 2.5, 3),
        (True, 0, 3),
        ("5", 2, 3),
    ],
)
def test_invalid_arguments_are_refused(pool: Any, matching: Any, reveal: Any) -> None:
    """Negative counts, more matching cards than the pool, and non-integers are errors."""
    with pytest.raises(ValueError):
        tunnel_extra_odds(pool, matching, reveal)


# -- the table of the seed ------------------------------------------------------------------

SEED_TABLE = {2: (47, 88, 99), 4: (49, 89, 99), 6: (52, 91, 99), 8: (55, 92, 99)}
"""Success chances in percent with 0, 1 or 2 reserve cards after laying L cards."""


def model_b(laid: int) -> tuple[Fraction, ...]:
    """The table's model: 110 cards less the laid ones; 12 - L of the colour and 14
    locomotives match."""
    return cumulative(tunnel_extra_odds(110 - laid, 12 - laid + 14))[:3]


def test_seed_table_eleven_cells_match_after_rounding() -> None:
    """The table is reproduced by model B: eleven of its twelve cells round to the
    printed whole percent; the last, 99.52 %, is printed as 99."""
    matches = []
    for laid, printed in SEED_TABLE.items():
        for spare, (chance, shown) in enumerate(zip(model_b(laid), printed, strict=True)):
            matches.append((laid, spare, round(chance * 100) == shown))
    assert [m for m in matches if not m[2]] == [(8, 2, False)]
    last = model_b(8)[2]
    assert round(float(last) * 100, 2) == 99.52
    assert round(last * 100) == 100


def test_seed_table_values_to_two_decimals() -> None:
    """The exact model B values behind the table, as the explanation page gives them."""
    shown = {laid: tuple(round(float(c) * 100, 2) for c in model_b(laid)) for laid in SEED_TABLE}
    assert shown == {
        2: (46.67, 87.65, 99.01),
        4: (49.39, 89.14, 99.2),
        6: (52.32, 90.61, 99.37),
        8: (55.49, 92.04, 99.52),
    }


def test_explanation_page_table_is_model_b() -> None:
    """The table of the tunnel odds page gives model B's values."""
    page = Path(__file__).parents[2] / "docs" / "explanation" / "tunnel-odds.md"
    text = page.read_text(encoding="utf-8")
    for laid in SEED_TABLE:
        cells = " | ".join(f"{float(c) * 100:.2f} %" for c in model_b(laid))
        assert f"| {laid} | {110 - laid} | {26 - laid} | {cells} |" in text


# -- from a player's view -------------------------------------------------------------------


def view_with(
    rs: Ruleset,
    hand: str,
    display: list[int],
    discard: str = "",
    deck: list[int] | None = None,
) -> PlayerView:
    """Seat 0's view with these cards in its hand, the display, the discard pile and the
    deck (by default, every other card); the rest of the cards are seat 1's."""
    state = started(rs, 2, seed=9)
    deck_counts = index_of(rs).deck_counts
    rest = Counter({k: n for k, n in enumerate(deck_counts)})
    rest.subtract(Counter(display))
    for counts in (cards(hand), cards(discard)):
        rest.subtract({k: n for k, n in enumerate(counts)})
    if deck is None:
        deck = sorted(rest.elements())
    rest.subtract(Counter(deck))
    state = with_player(state, 0, hand=cards(hand))
    state = with_player(state, 1, hand=tuple(rest[k] for k in range(len(deck_counts))))
    state = arrange(state, display=display, discard=cards(discard), deck=deck)
    return view_of(rs, state, 0)


def route_id(rs: Ruleset, a: str, b: str) -> int:
    (track,) = [t for t in rs.map.routes if set(t.cities) == {a, b}]
    return track.id


def test_view_odds_count_own_hand_display_and_discard(europe: Ruleset) -> None:
    """The unseen pool is 110 less the hand, the display and the discard pile; the
    example of the explanation page: 99 cards, 21 matching, 48.50 % and 88.71 %."""
    view = view_with(europe, "GGLRRB", [G, L, R, R, W])
    assert view.tunnel is None and view.deck_size >= 3
    # Venezia-Zürich is a green 2-space tunnel.
    odds = tunnel_odds_for_view(europe, view, route_id(europe, "Venezia", "Zürich"), cards("GG"))
    assert odds == tunnel_extra_odds(99, 9 + 12)
    at_most = cumulative(odds)
    assert (round(float(at_most[0]) * 100, 2), round(float(at_most[1]) * 100, 2)) == (48.5, 88.71)


def test_view_odds_discard_pile_is_known(europe: Ruleset) -> None:
    """Cards in the discard pile are out of the unseen pool, matching or not."""
    view = view_with(europe, "GG", [R, R, R, B, B], discard="GGGLLKK")
    odds = tunnel_odds_for_view(europe, view, route_id(europe, "Venezia", "Zürich"), cards("GG"))
    pool = 110 - 2 - 5 - 7
    assert odds == tunnel_extra_odds(pool, (12 - 2 - 3) + (14 - 2))


def test_view_odds_mixed_and_locomotive_payments(europe: Ruleset) -> None:
    """TUNNEL-4 / TUNNEL-5: a mixed payment matches its colour and locomotives; an
    all-locomotive payment matches only locomotives."""
    view = view_with(europe, "BBLLLKK", [L, B, K, K, W])
    tunnel = route_id(europe, "Sarajevo", "Sofia")  # gray, 2 spaces
    pool = 110 - 7 - 5
    mixed = tunnel_odds_for_view(europe, view, tunnel, cards("BL"))
    assert mixed == tunnel_extra_odds(pool, (12 - 3) + (14 - 4))
    locos = tunnel_odds_for_view(europe, view, tunnel, cards("LL"))
    assert locos == tunnel_extra_odds(pool, 14 - 4)
    blacks = tunnel_odds_for_view(europe, view, tunnel, cards("KK"))
    assert blacks == tunnel_extra_odds(pool, (12 - 4) + (14 - 4))
    assert locos[0] > mixed[0]


def test_view_odds_reveal_continues_from_the_discard_pile(europe: Ruleset) -> None:
    """TUNNEL-3: with 1 card in the deck the other 2 come from the discard pile, whose
    cards are known; the result matches a count of every equally likely outcome."""
    view = view_with(europe, "GGG", [R, R, B, B, W], discard="GLRK", deck=[W])
    assert view.deck_size == 1
    odds = tunnel_odds_for_view(europe, view, route_id(europe, "Venezia", "Zürich"), cards("GG"))
    unseen = Counter({k: index_of(europe).deck_counts[k] for k in range(9)})
    unseen.subtract(Counter({G: 4, R: 3, B: 2, W: 1, L: 1, K: 1}))
    first = [k for k, n in unseen.items() for _ in range(n)]
    discard = [G, L, R, K]
    tally: Counter[int] = Counter()
    for top in first:
        for pair in itertools.combinations(discard, 2):
            tally[sum(1 for c in (top, *pair) if c in (G, L))] += 1
    total = sum(tally.values())
    assert odds == tuple(Fraction(tally[k], total) for k in range(4))


def test_view_odds_when_few_cards_are_left(europe: Ruleset) -> None:
    """TUNNEL-9: an empty deck and a discard pile of 1 matching card: 1 extra for sure;
    both empty: nothing extra."""
    tunnel = route_id(europe, "Venezia", "Zürich")
    view = view_with(europe, "GG", [R, R, B, B, W], discard="L", deck=[])
    assert tunnel_odds_for_view(europe, view, tunnel, cards("GG")) == (0, 1, 0, 0)
    view = view_with(europe, "GG", [R, R, B, B, W], deck=[])
    assert tunnel_odds_for_view(europe, view, tunnel, cards("GG")) == (1, 0, 0, 0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: evolve(v, display=(9, *v.display[1:])), "$.display[0]: must be -1 to 8"),
        (lambda v: evolve(v, hand=(1.5,) * 9), "$.hand.red: expected an integer, got 1.5"),
        (lambda v: evolve(v, deck_size=v.deck_size + 1), "$.deck_size: 103 train cards are"),
    ],
)
def test_view_error_view_odds_of_no_position(
    europe: Ruleset, change: Callable[[PlayerView], PlayerView], message: str
) -> None:
    """ViewError (a ValueError): the odds are read from a view a position of the game shows."""
    view = change(view_with(europe, "GG", [R, R, B, B, W]))
    with pytest.raises(ViewError) as info:
        tunnel_odds_for_view(europe, view, route_id(europe, "Venezia", "Zürich"), cards("GG"))
    assert str(info.value).startswith(message)


def test_view_odds_refuse_what_is_not_a_tunnel_claim(europe: Ruleset) -> None:
    """Errors: an unknown track, a track that is not a tunnel, a payment that does not fit
    the track, a payment not in hand."""
    view = view_with(europe, "GGRR", [R, R, B, B, W])
    tunnel = route_id(europe, "Venezia", "Zürich")
    with pytest.raises(ValueError, match="no track"):
        tunnel_odds_for_view(europe, view, 999, cards("GG"))
    with pytest.raises(ValueError, match="not a tunnel"):
        tunnel_odds_for_view(europe, view, route_id(europe, "Cadiz", "Lisboa"), cards("GG"))
    with pytest.raises(ValueError):
        tunnel_odds_for_view(europe, view, tunnel, cards("RR"))
    with pytest.raises(ValueError, match="hand"):
        tunnel_odds_for_view(europe, view, tunnel, cards("GL"))


# -- ttr odds tunnel ------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["odds", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("pool", "matching"), [(108, 24), (102, 18), (2, 1), (0, 0), (3, 3)])
def test_cli_json(capsys: pytest.CaptureFixture[str], pool: int, matching: int) -> None:
    """``ttr odds tunnel --json`` prints the exact chances as full-precision floats."""
    code, out, err = run(
        capsys, "tunnel", "--pool", str(pool), "--matching", str(matching), "--json"
    )
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1
    data = json.loads(out)
    assert data == {
        "pool": pool,
        "matching": matching,
        "extra_cards": [float(p) for p in tunnel_extra_odds(pool, matching)],
    }
    assert list(data) == ["pool", "matching", "extra_cards"]


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    """Without ``--json`` a table gives each chance and the running total in percent."""
    code, out, err = run(capsys, "tunnel", "--pool", "108", "--matching", "24")
    assert (code, err) == (0, "")
    assert "108" in out and "24" in out
    for text in ("46.67 %", "40.98 %", "87.65 %", "99.01 %", "100.00 %"):
        assert text in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("tunnel", "--pool", "-1", "--matching", "0"), "--pool"),
        (("tunnel", "--pool", "10", "--matching", "-2"), "--matching"),
        (("tunnel", "--pool", "10", "--matching", "11"), "cannot exceed"),
        (("tunnel", "--pool", "2.5", "--matching", "1"), "--pool"),
        (("tunnel", "--pool", "ten", "--matching", "1"), "--pool"),
        (("tunnel", "--pool", "10", "--matching", "1e1"), "--matching"),
        (("tunnel", "--pool", "10"), "--matching"),
        (("tunnel",), "required"),
        ((), "tunnel"),
        (("bridge",), "invalid choice"),
    ],
)
def test_cli_invalid_arguments(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    """A command line that does not make sense: one error line, exit status 2."""
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("ttr: error: ")
    assert message in err
