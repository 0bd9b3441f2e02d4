"""The fixed action encoding of ``ttr_core.rl``: one code per legal action, read from views.

Random games of every installed edition check that every legal action has exactly one
code, that codes decode back to their actions, that the mask is the legal set, and that
decoding refuses every other code. Hand-made positions check the codes relative to the
position: ticket choices (TICKET-1), station payments (STATION-5), tunnel payments
(TUNNEL-6), the card choices of payments with groups (GROUP-3) and passing (PASS-1).
Hypothesis feeds ``decode`` values of every type and size: only ``ActionCodeError``
escapes.
"""

from __future__ import annotations

import copy
import functools
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from attrs import evolve, frozen
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as npst

import ttr_core as ttr
from ttr_core import ActionCodeError, GameState, Ruleset, Simulator, view_of
from ttr_core.model.actions import (
    Action,
    BuildStation,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.model.cards import EMPTY, LOCO
from ttr_core.model.errors import MAX_MESSAGE, ViewError
from ttr_core.model.state import Phase, TunnelAttempt
from ttr_core.play.legal import legal_actions
from ttr_core.rl import ActionEncoding
from ttr_core.rules.index import index_of
from ttr_core.rules.payments import payment_error
from ttr_core.testing.play import ruleset
from ttr_core.testing.scenarios import arrange, cards, started, with_player

EDITIONS = sorted(ttr.installed_editions())

HUGE = 10**5000
"""An integer Python refuses to turn into text (more than 4,300 digits)."""


def as_code(value: object) -> int | None:
    """``value`` as an ``int`` if it is an integer an action code may be (a Python or NumPy
    integer scalar, not a ``bool``), else None."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        return None
    return int(value)


def any_value(size: int) -> st.SearchStrategy[object]:
    """Values of every Python type and size a caller might pass as an action code: ints of
    any size (codes from -2 to ``size + 2`` often, ``±10**5000`` too), bools, floats,
    strings, bytes, None, lists, tuples, NumPy arrays and NumPy scalars."""
    ints = st.one_of(
        st.integers(),
        st.integers(-2, size + 2),
        st.sampled_from([2**63, -(2**63) - 1, 2**64]),
        # Mapped, not sampled: Hypothesis may print a strategy, which lists sampled values.
        st.sampled_from([1, -1]).map(lambda sign: sign * HUGE),
    )
    dtypes = ("int8", "int64", "uint64", "bool", "float32", "float64", "complex128", "U3")
    return st.one_of(
        ints,
        st.booleans(),
        st.floats(),
        st.text(max_size=50),
        st.binary(max_size=10),
        st.none(),
        st.lists(ints, max_size=3),
        st.tuples(ints),
        st.integers(-2, size + 2).map(np.int64),
        st.one_of(*(npst.from_dtype(np.dtype(t)) for t in dtypes)),
        npst.arrays(npst.scalar_dtypes(), npst.array_shapes(min_dims=0, max_dims=2, max_side=3)),
    )


@frozen
class Legal:
    """Stands for the ``index``-th legal code of the position (modulo their number), as a
    NumPy integer if ``numpy``: a value the test replaces before it is used."""

    index: int
    numpy: bool

    def code(self, legal: Sequence[int]) -> int | np.int64:
        chosen = sorted(legal)[self.index % len(legal)]
        return np.int64(chosen) if self.numpy else chosen


LEGAL = st.builds(Legal, st.integers(0, 10**4), st.booleans())
"""A legal code of the position, one draw in a dozen when mixed with :func:`any_value`."""


def assert_one_short_line(error: Exception) -> None:
    """The message promise of ``docs/reference/errors.md``: one line, at most 300 characters."""
    text = str(error)
    assert "\n" not in text and len(text) <= MAX_MESSAGE, text


def decisions(rs: Ruleset, players: int, seed: int) -> Iterator[GameState]:
    """Every position of a random game of ``rs`` in which a seat decides."""
    sim = Simulator.new(rs, players, seed=seed, record=False)
    chooser = random.Random(seed)
    while not sim.is_over:
        yield sim.snapshot()
        sim.apply_index(chooser.randrange(sim.legal_count()))


def player_counts(rs: Ruleset) -> range:
    lo, hi = rs.params.players
    return range(lo, hi + 1)


def acting_view(rs: Ruleset, state: GameState) -> ttr.PlayerView:
    return view_of(rs, state, state.current)


def holding(state: GameState, seat: int, spec: str, *, drawn: tuple[int, ...] = ()) -> GameState:
    """``state`` with ``seat`` holding the cards ``spec``, taken from or returned to the
    deck, so that every card stays somewhere; ``drawn`` cards leave the deck too (turned
    over for a tunnel)."""
    old = state.players[seat].hand
    new = cards(spec)
    deck = list(state.deck[state.deck_pos :])
    for k in range(len(new)):
        for _ in range(new[k] - old[k]):
            deck.remove(k)
        deck.extend([k] * (old[k] - new[k]))
    for k in drawn:
        deck.remove(k)
    return arrange(with_player(state, seat, hand=new), deck=deck)


# -- the layout ----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_action_encoding_sections_tile_the_codes(edition: str) -> None:
    """The sections follow each other from 0 to ``size``, in the documented order."""
    enc = ActionEncoding(ruleset(edition))
    order = [
        "take_face_up",
        "draw_blind",
        "draw_tickets",
        "claim_route",
        "claim_with_groups",
        "build_station",
        "pass",
        "keep_tickets",
        "pay_tunnel",
        "withdraw_tunnel",
        "choose_card",
    ]
    assert [s.name for s in enc.sections] == order
    start = 0
    for s in enc.sections:
        assert s.start == start
        start = s.stop
    assert start == enc.size
    assert enc.section_of(0).name == "take_face_up"
    assert enc.section_of(enc.size - 1) == next(s for s in reversed(enc.sections) if s.size)


def test_action_encoding_sizes_are_known_per_ruleset_and_options() -> None:
    """N depends on the ruleset alone: the options that change the offer change it."""
    usa = ActionEncoding(ruleset("usa"))
    assert usa.section("keep_tickets").size == 2**3
    assert usa.section("build_station").size == 0
    assert usa.section("pay_tunnel").size == 0
    four = ActionEncoding(ruleset("usa", {"opening_tickets": 4}))
    assert four.section("keep_tickets").size == 2**4
    assert four.size == usa.size + 8
    europe = ActionEncoding(ruleset("europe"))
    rs = europe.ruleset
    assert europe.section("build_station").size == len(index_of(rs).city_ids) * (1 + 8 * 3)
    assert europe.section("pay_tunnel").size == rs.params.tunnel_reveal + 1
    nordic = ActionEncoding(ruleset("nordic"))
    assert nordic.section("choose_card").size == 9
    assert nordic.section("claim_with_groups").size > 0


def test_action_encoding_tables_are_built_once_per_ruleset() -> None:
    rs = ruleset("europe")
    assert ActionEncoding(rs)._tables is ActionEncoding(rs)._tables
    with pytest.raises(KeyError):
        ActionEncoding(rs).section("no_such_section")


def test_action_encoding_claims_cover_every_accepted_payment() -> None:
    """Each track has one code per payment ``payment_error`` accepts, and only those."""
    rs = ruleset("usa")
    enc = ActionEncoding(rs)
    claims = enc.section("claim_route")
    tracks = range(len(index_of(rs).routes))
    gray6 = next(
        r for r in tracks if index_of(rs).route_color[r] == 8 and index_of(rs).route_len[r] == 6
    )
    red5 = next(
        r for r in tracks if index_of(rs).route_color[r] == 0 and index_of(rs).route_len[r] == 5
    )
    per_track = {r: 0 for r in range(len(index_of(rs).routes))}
    for action in enc._tables.fixed[claims.start : claims.stop]:
        assert isinstance(action, ClaimRoute)
        per_track[index_of(rs).route_index[action.route]] += 1
    assert per_track[gray6] == 1 + 8 * 6  # all locomotives, or one colour with 1 to 6 cards
    assert per_track[red5] == 1 + 5
    assert sum(per_track.values()) == claims.size


# -- random games of every edition ---------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_action_encoding_round_trips_every_legal_action(edition: str) -> None:
    """In every position of random games at every player count: codes distinct and in
    range, ``decode(encode(a)) == a``, and the mask is exactly the legal set."""
    rs = ruleset(edition)
    enc = ActionEncoding(rs)
    seen: set[str] = set()
    for players in player_counts(rs):
        for state in decisions(rs, players, seed=players):
            view = acting_view(rs, state)
            legal = list(legal_actions(rs, state))
            codes = enc.codes(view, legal)
            assert len(set(codes)) == len(codes) == len(legal)
            assert all(0 <= c < enc.size for c in codes)
            for action, code in zip(legal, codes, strict=True):
                assert enc.decode(code, view) == action
                seen.add(enc.section_of(code).name)
            mask = enc.mask(view, legal)
            assert mask.dtype == np.int8 and mask.shape == (enc.size,)
            assert set(np.flatnonzero(mask)) == set(codes)
    used = {s.name for s in enc.sections if s.size} - {"pass"}
    assert used <= seen, f"sections no random game reached: {used - seen}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_action_encoding_decodes_only_legal_codes(edition: str) -> None:
    """Every code outside the mask is refused by ``decode``, so each code means at most
    one action and decoding never yields an illegal one."""
    rs = ruleset(edition)
    enc = ActionEncoding(rs)
    for players in player_counts(rs):
        states = list(decisions(rs, players, seed=10 + players))
        for state in states[:: max(1, len(states) // 6)]:
            view = acting_view(rs, state)
            legal = set(enc.codes(view, legal_actions(rs, state)))
            for code in range(enc.size):
                if code in legal:
                    continue
                with pytest.raises(ActionCodeError):
                    enc.decode(code, view)


# -- codes relative to the position ---------------------------------------------------------


def test_ticket_1_keep_codes_are_bits_of_the_offer() -> None:
    """TICKET-1: a keep code sets bit i for the i-th offered ticket; kept in offer order."""
    rs = ruleset("usa")
    enc = ActionEncoding(rs)
    state = ttr.new_game(rs, 2, seed=3)
    view = acting_view(rs, state)
    a, b, c = view.offered
    keep = enc.section("keep_tickets").start
    assert enc.encode(KeepTickets(tickets=(a, c)), view) == keep + 0b101
    assert enc.encode(KeepTickets(tickets=(c, a)), view) == keep + 0b101
    assert enc.decode(keep + 0b101, view) == KeepTickets(tickets=(a, c))
    assert enc.decode(keep + 0b111, view) == KeepTickets(tickets=(a, b, c))
    with pytest.raises(ActionCodeError, match="not a legal action"):
        enc.decode(keep + 0b001, view)  # keeps one of the opening three: too few
    # With four opening tickets, a later draw of three leaves the fourth bit unused.
    four = ruleset("usa", {"opening_tickets": 4})
    other = ActionEncoding(four)
    sim = Simulator.from_state(four, started(four, 2, seed=3), record=False)
    sim.apply(DrawTickets())
    drawing = acting_view(four, sim.snapshot())
    assert len(drawing.offered) == 3
    with pytest.raises(ActionCodeError, match="beyond the 3 tickets offered to seat 0"):
        other.decode(other.section("keep_tickets").start + 0b1000, drawing)
    with pytest.raises(ActionCodeError, match="has no code"):
        enc.encode(KeepTickets(tickets=(a, a)), view)
    with pytest.raises(ActionCodeError, match="has no code"):
        enc.encode(KeepTickets(tickets=(10_000,)), view)


def test_station_5_station_codes_are_relative_to_the_price() -> None:
    """STATION-5: a slot is a colour and a number of locomotives; the price comes from
    the seat's stations left."""
    rs = ruleset("europe")
    enc = ActionEncoding(rs)
    state = holding(started(rs, 2, seed=5), 0, "RRRBLL")
    view = acting_view(rs, state)
    stations = enc.section("build_station")
    city = index_of(rs).city_ids[3]
    first = BuildStation(city=city, cards=cards("R"))
    assert enc.encode(first, view) == stations.start + 3 * 25 + 1 + 0 * 3 + 0
    all_locos = enc.decode(stations.start + 3 * 25 + 0, view)
    assert all_locos == BuildStation(city=city, cards=cards("L"))
    # The second station costs 2 cards: the same slot now pays 2 red cards.
    state = with_stations(state, 0, [0])
    view = acting_view(rs, state)
    second = enc.decode(stations.start + 3 * 25 + 1, view)
    assert second == BuildStation(city=city, cards=cards("RR"))
    assert enc.encode(second, view) == stations.start + 3 * 25 + 1
    blue_one_loco = stations.start + 3 * 25 + 1 + 4 * 3 + 1
    assert enc.decode(blue_one_loco, view) == BuildStation(city=city, cards=cards("BL"))
    with pytest.raises(ActionCodeError, match="costs 2 cards"):
        enc.decode(stations.start + 3 * 25 + 1 + 2, view)  # red with 2 locomotives
    with pytest.raises(ActionCodeError, match="not a legal action"):
        enc.decode(stations.start + 3 * 25 + 1 + 3 * 3, view)  # green: none held
    state = with_stations(state, 0, [1, 2])
    assert state.players[0].stations == 0
    with pytest.raises(ActionCodeError, match="has none left"):
        enc.decode(stations.start, acting_view(rs, state))


def with_stations(state: GameState, seat: int, cities: list[int]) -> GameState:
    """``state`` with ``seat``'s stations built in ``cities`` (by index), a turn each."""
    owners = list(state.station_owners)
    for c in cities:
        owners[c] = seat
    left = state.players[seat].stations - len(cities)
    state = with_player(state, seat, stations=left)
    return arrange(state, station_owners=tuple(owners), turn=state.turn + len(cities))


def tunnel_position(rs: Ruleset, paid: tuple[int, ...], extra: int, hand: str) -> GameState:
    """Seat 0 waiting to pay ``extra`` cards for the first tunnel that ``paid`` pays for:
    ``extra`` locomotives among the cards turned over, the others of a colour not paid."""
    state = started(rs, 2, seed=2)
    tracks = range(len(index_of(rs).routes))
    r = next(
        r for r in tracks if index_of(rs).route_tunnel[r] and payment_error(rs, r, paid) is None
    )
    colour = next((k for k in range(LOCO) if paid[k]), LOCO)
    other = next(k for k in range(LOCO) if k != colour)
    revealed = (LOCO,) * extra + (other,) * (rs.params.tunnel_reveal - extra)
    attempt = TunnelAttempt(route=r, paid=paid, revealed=revealed, extra=extra, color=colour)
    state = holding(state, 0, hand, drawn=revealed)
    return arrange(state, phase=Phase.TUNNEL, tunnel=attempt)


def test_tunnel_6_pay_codes_count_the_locomotives() -> None:
    """TUNNEL-6: code ``start + n`` pays with ``n`` locomotives, the rest in the colour."""
    rs = ruleset("europe")
    enc = ActionEncoding(rs)
    state = tunnel_position(rs, cards("RR"), 2, "RRRRL")
    view = acting_view(rs, state)
    pay = enc.section("pay_tunnel").start
    assert enc.decode(pay, view) == PayTunnel(cards=cards("RR"))
    assert enc.decode(pay + 1, view) == PayTunnel(cards=cards("RL"))
    with pytest.raises(ActionCodeError, match="not a legal action"):
        enc.decode(pay + 2, view)  # two locomotives: only one is held besides the payment
    with pytest.raises(ActionCodeError, match="no tunnel claim waits"):
        enc.decode(pay + 3, view)  # more locomotives than extra cards
    assert enc.decode(enc.section("withdraw_tunnel").start, view) == WithdrawTunnel()
    expected = {PayTunnel(cards=cards("RR")), PayTunnel(cards=cards("RL")), WithdrawTunnel()}
    assert set(legal_actions(rs, state)) == expected
    with pytest.raises(ActionCodeError, match="has no code"):
        enc.encode(PayTunnel(cards=cards("BL")), view)
    # A tunnel paid with locomotives only takes locomotives only.
    locos = tunnel_position(rs, cards("LL"), 1, "LLLL")
    view = acting_view(rs, locos)
    assert enc.decode(pay + 1, view) == PayTunnel(cards=cards("L"))
    with pytest.raises(ActionCodeError, match="no tunnel claim waits"):
        enc.decode(pay, view)


def test_group_3_card_choices_and_group_claims_have_codes() -> None:
    """GROUP-3: a claim with groups is one code per number of groups, then one code per
    card kind chosen, in card order."""
    rs = ruleset("nordic")
    enc = ActionEncoding(rs)
    state = started(rs, 2, seed=3)
    r = next(
        r
        for r in range(len(index_of(rs).routes))
        if index_of(rs).route_group[r] and index_of(rs).route_ferry[r]
    )
    state = holding(state, 0, "RRRRRRRRRRLLLL")
    view = acting_view(rs, state)
    legal = list(legal_actions(rs, state))
    groups = [a for a in legal if isinstance(a, ClaimWithGroups)]
    assert groups
    start = enc.section("claim_with_groups")
    for action in groups:
        assert start.start <= enc.encode(action, view) < start.stop
    mine = next(a for a in groups if a.route == index_of(rs).route_ids[r])
    sim = Simulator.from_state(rs, state, record=False)
    sim.apply(mine)
    choosing = sim.snapshot()
    view = acting_view(rs, choosing)
    choose = enc.section("choose_card").start
    for chosen in legal_actions(rs, choosing):
        assert isinstance(chosen, ChooseCard)
        assert enc.encode(chosen, view) == choose + chosen.card
        assert enc.decode(choose + chosen.card, view) == chosen
    with pytest.raises(ActionCodeError, match="not a legal action"):
        enc.decode(choose + 4, view)  # no blue card is held


def test_pass_1_has_a_code_when_nothing_else_is_legal() -> None:
    """PASS-1: passing has its code, legal only in a turn where nothing else is."""
    rs = ruleset("usa")
    enc = ActionEncoding(rs)
    state = started(rs, 2, seed=4)
    # Every card and every ticket left in seat 1's hands: nothing to draw, and seat 0 can
    # pay for no track (the tickets go to seat 1, so that the view stays consistent).
    stuck = arrange(state, deck=(), discard=EMPTY, display=(-1,) * 5, ticket_deck=())
    stuck = with_player(stuck, 0, hand=EMPTY)
    stuck = with_player(
        stuck,
        1,
        hand=index_of(rs).deck_counts,
        tickets=state.players[1].tickets + state.ticket_deck,
    )
    view = acting_view(rs, stuck)
    code = enc.section("pass").start
    assert list(legal_actions(rs, stuck)) == [Pass()]
    assert enc.codes(view, legal_actions(rs, stuck)) == [code]
    assert enc.decode(code, view) == Pass()
    normal = started(rs, 2, seed=4)
    with pytest.raises(ActionCodeError, match="not a legal action"):
        enc.decode(code, acting_view(rs, normal))


# -- refusals -------------------------------------------------------------------------------


def test_action_encoding_refuses_bad_codes_and_actions() -> None:
    rs = ruleset("usa")
    enc = ActionEncoding(rs)
    state = started(rs, 3, seed=1)
    view = acting_view(rs, state)
    for bad in (-1, enc.size, 10**9):
        with pytest.raises(ActionCodeError, match="out of range"):
            enc.decode(bad, view)
    for wrong in (1.0, "3", None, True):
        with pytest.raises(ActionCodeError, match="is an integer"):
            enc.decode(wrong, view)  # type: ignore[arg-type]
    assert enc.decode(np.int64(enc.section("draw_blind").start), view) == DrawBlind()
    with pytest.raises(ActionCodeError, match="seat 1 is not the seat to act"):
        enc.decode(enc.section("draw_blind").start, view_of(rs, state, 1))
    for action in (
        BuildStation(city=index_of(rs).city_ids[0], cards=cards("R")),
        ClaimRoute(route=index_of(rs).route_ids[0], cards=cards("RRRRRRRR")),
        ClaimRoute(route=True, cards=cards("L")),
        ClaimWithGroups(route=index_of(rs).route_ids[0], groups=1),
        TakeFaceUp(card=9),
        PayTunnel(cards=cards("L")),
        WithdrawTunnel(),
        ChooseCard(card=0),
        Action(),
    ):
        with pytest.raises(ActionCodeError, match="has no code"):
            enc.encode(action, view)
    sim = Simulator.new(rs, 2, seed=1, record=False)
    while not sim.is_over:
        sim.apply_index(0)
    with pytest.raises(ActionCodeError, match="the game is over"):
        enc.decode(0, view_of(rs, sim.snapshot(), 0))
    europe = ruleset("europe")
    with pytest.raises(ViewError, match="edition 'europe', not 'usa'"):
        enc.decode(0, acting_view(europe, started(europe, 3, seed=1)))


def test_action_encoding_quotes_a_huge_code_by_its_size_in_action_code_error() -> None:
    """A code of 5001 digits, either sign, is out of range like any other, and the message
    gives it by its size (Python refuses to turn it into text)."""
    rs = ruleset("usa")
    enc = ActionEncoding(rs)
    view = acting_view(rs, started(rs, 2, seed=1))
    for huge, shown in [(HUGE, "<int of 5001 digits>"), (-HUGE, "<negative int of 5001 digits>")]:
        for call in (enc.check, enc.section_of, lambda code: enc.decode(code, view)):
            with pytest.raises(ActionCodeError, match=f"action code {shown} is out of range"):
                call(huge)
        with pytest.raises(ActionCodeError, match="an action code is an integer"):
            enc.check(np.array(huge, dtype=object))
        with pytest.raises(ActionCodeError, match="has no code"):
            enc.encode(TakeFaceUp(card=huge), view)


def test_decode_checks_the_view_before_reading_it_with_view_error() -> None:
    """A hand-made view that no position shows is refused with ``ViewError`` before a code
    is read against it (a station code reads the seat's stations, a keep code the offer),
    even right after the encoding decoded with a good view."""
    rs = ruleset("europe")
    enc = ActionEncoding(rs)
    view = acting_view(rs, started(rs, 2, seed=5))
    station = enc.section("build_station").start
    keep = enc.section("keep_tickets").start
    forge: Any = evolve  # fields of the wrong type, on purpose
    for bad, code in [
        (forge(view, seat=5, current=5), station),
        (forge(view, seat=HUGE, current=HUGE), station),
        (forge(view, seat=np.array([0, 1]), current=np.array([0, 1])), station),
        (forge(view, players=None), station),
        (forge(view, offered=None), keep),
        (forge(view, hand=np.array(view.hand)), 0),
    ]:
        assert enc.decode(enc.section("draw_blind").start, view) == DrawBlind()
        with pytest.raises(ViewError) as info:
            enc.decode(code, bad)
        assert_one_short_line(info.value)


@functools.cache
def decoding_positions() -> list[tuple[ActionEncoding, ttr.PlayerView, dict[int, Action]]]:
    """Positions of random games, each with its encoding, the view of the seat to act and
    its legal codes: USA, Europe (stations, tunnels) and Nordic Countries (groups)."""
    out = []
    for edition in ("usa", "europe", "nordic"):
        rs = ruleset(edition)
        enc = ActionEncoding(rs)
        for i, state in enumerate(decisions(rs, 2, seed=3)):
            if i in (0, 1, 9, 40):
                view = acting_view(rs, state)
                legal = list(legal_actions(rs, state))
                out.append((enc, view, dict(zip(enc.codes(view, legal), legal, strict=True))))
    return out


@settings(max_examples=100)
@given(value=st.one_of(any_value(2400), LEGAL), at=st.integers(0, 11))
def test_decode_lets_nothing_but_action_code_error_escape(value: object, at: int) -> None:
    """``decode`` returns the action of a legal code, a NumPy integer too, and refuses any
    other value of any type or size with ``ActionCodeError`` in one short line, changing
    neither the view nor what the encoding decodes afterwards."""
    enc, view, legal = decoding_positions()[at]
    if isinstance(value, Legal):
        value = value.code(list(legal))
    before = copy.deepcopy(view)
    decode: Any = enc.decode
    code = as_code(value)
    if code in legal:
        event("decoded")
        assert decode(value, view) == legal[code]
    else:
        event("refused")
        with pytest.raises(ActionCodeError) as info:
            decode(value, view)
        assert_one_short_line(info.value)
    assert view == before
    code, action = next(iter(legal.items()))
    assert enc.decode(code, view) == action


def test_action_encoding_refuses_an_illegal_but_well_formed_code() -> None:
    """A claim the hand cannot pay for is refused with the code and the action named."""
    rs = ruleset("usa")
    enc = ActionEncoding(rs)
    state = holding(started(rs, 2, seed=1), 0, "")
    view = acting_view(rs, state)
    code = enc.section("claim_route").start
    with pytest.raises(ActionCodeError, match=rf"action code {code} \(ClaimRoute"):
        enc.decode(code, view)


def test_agents_page_gives_the_true_code_counts() -> None:
    """The explanation page's table of code counts matches the built-in editions."""
    page = (Path(__file__).parents[2] / "docs" / "explanation" / "agents.md").read_text()
    rows = re.findall(
        r"^\| `(\w+)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", page, re.M
    )
    columns = ["claim_route", "claim_with_groups", "build_station", "keep_tickets", "pay_tunnel"]
    builtin = {e for e, ed in ttr.installed_editions().items() if ed.builtin}
    assert {row[0] for row in rows} == builtin
    for edition, size, *sizes in rows:
        enc = ActionEncoding(ruleset(edition))
        assert int(size) == enc.size
        assert [int(n) for n in sizes] == [enc.section(name).size for name in columns]
    assert "1088 in all" in page
    assert ActionEncoding(ruleset("usa", {"opening_tickets": 4})).size == 1088
