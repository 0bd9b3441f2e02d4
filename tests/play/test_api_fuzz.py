"""Property tests: the play API refuses hostile arguments with its documented errors only.

The readers have their own fuzz tests (``test_reader_fuzz``); these feed the calls that
take Python values: seats of every type and size, action fields and listing indices of
huge size. ``Game.apply``, ``Simulator.apply``, the functional ``apply``, ``view_of``,
``Game.view`` and ``pending_for`` may raise only ``SetupError`` for a seat and
``IllegalActionError`` for an action; ``apply_index`` and ``legal_action`` only the
documented ``IndexError``. Every message is one line of at most ``MAX_MESSAGE``
characters, and nothing changes: not the state, not the listing, not the log.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core import Game, Ruleset, Simulator
from ttr_core.bots import make_bot
from ttr_core.model.actions import (
    ACTION_TYPES,
    Action,
    BuildStation,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    KeepTickets,
    PayTunnel,
    TakeFaceUp,
)
from ttr_core.model.cards import NUM_KINDS
from ttr_core.model.errors import MAX_MESSAGE, IllegalActionError, SetupError, TtrError, quote
from ttr_core.model.state import GameState, Phase
from ttr_core.play import functional
from ttr_core.rules.tickets import pending_for
from ttr_core.rules.views import redact, view_of

HUGE = 10**5000
"""More digits than Python turns into text (4,300), so a message that formats it fails."""

ODD_VALUES: tuple[object, ...] = (
    HUGE,
    -HUGE,
    2**63,
    -(2**63) - 1,
    2**64,
    10**30,
    True,
    False,
    1.0,
    -0.0,
    float("nan"),
    float("inf"),
    "0",
    "",
    b"0",
    None,
    (0,),
    [0],
    {0: 0},
    frozenset({0}),
    object(),
    1j,
)
"""Values of every Python type and size that a hostile caller may pass."""

any_value = st.one_of(
    st.sampled_from(ODD_VALUES),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.lists(st.integers(), max_size=3),
    st.tuples(st.integers()),
)
ints = st.one_of(
    st.sampled_from((HUGE, -HUGE, 2**63, -(2**63) - 1, 2**64, -1, 0, 1, 10**30)),
    st.integers(),
)


def _play_until(edition: str, players: int, seed: int, stop: Callable[[GameState], bool]) -> Game:
    """A game of ``edition`` played with the first legal action until ``stop`` holds."""
    game = Game.new(edition, players=players, seed=seed)
    for _ in range(2000):
        if stop(game.state):
            return game
        legal = game.legal_actions()
        game.apply(legal[len(legal) // 2])
    raise AssertionError(f"{edition}: the position was not reached")


@functools.cache
def positions() -> tuple[Game, ...]:
    """Games of every edition at every kind of decision, and one that is over."""
    found = [
        Game.new("usa", players=3, seed=1),  # the opening ticket choices
        _play_until("usa", 2, 2, lambda s: s.phase is Phase.TURN),
        _play_until("usa", 2, 3, lambda s: s.phase is Phase.KEEP_TICKETS),
        _play_until("europe", 3, 4, lambda s: s.phase is Phase.TUNNEL),
        _play_until("europe", 2, 5, lambda s: s.turn > 20),
        _play_until("india", 3, 6, lambda s: s.turn > 10),
        _play_until("switzerland", 2, 7, lambda s: s.turn > 10),
        _play_until("nordic", 2, 8, lambda s: s.choice is not None),
        _play_until("usa", 2, 9, lambda s: s.is_over),
    ]
    return tuple(found)


position = st.sampled_from(range(9)).map(lambda i: positions()[i])


def refused_cleanly(exc: BaseException, *allowed: type[BaseException]) -> None:
    """``exc`` is one of the ``allowed`` documented errors, with a one-line short message."""
    assert isinstance(exc, allowed), f"{type(exc).__name__}: {exc}"
    text = str(exc)
    assert len(text) <= MAX_MESSAGE, text
    assert "\n" not in text, text


def attempt(call: Callable[[], object], *allowed: type[BaseException]) -> bool:
    """Run ``call``; True if it returned, False if it raised one of ``allowed`` cleanly."""
    try:
        call()
    except Exception as exc:
        refused_cleanly(exc, *allowed)
        return False
    return True


# -- seats: SETUP (a seat is an int of the game), TURN-4 ------------------------------------------


def _copy(game: Game) -> Game:
    """An independent copy of ``game``."""
    copy: Game = Game.from_simulator(game.simulator())
    return copy


@pytest.mark.slow
@settings(max_examples=120)
@given(game=position, seat=any_value)
def test_setup_error_for_every_seat_that_is_not_a_seat(game: Game, seat: object) -> None:
    """SetupError: a seat that is not an ``int`` from 0 to players - 1 (a ``bool``
    included) is refused by every call that takes one, and nothing changes; a real seat
    other than the one to act is refused by the apply calls under TURN-4."""
    rs, state = game.ruleset, game.state
    legal = game.legal_actions()
    is_seat = type(seat) is int and 0 <= seat < len(state.players)
    reads: list[Callable[[], object]] = [
        lambda: view_of(rs, state, seat),  # type: ignore[arg-type]
        lambda: game.view(seat),  # type: ignore[arg-type]
        lambda: pending_for(state, seat),
    ]
    for read in reads:
        assert attempt(read, SetupError) is is_seat
    if not len(legal) or seat is None:  # to apply, ``seat=None`` means no seat is given
        return
    action = legal[0]
    copy, sim = _copy(game), game.simulator()
    applies: list[Callable[[], object]] = [
        lambda: copy.apply(action, seat=seat),  # type: ignore[arg-type]
        lambda: sim.apply(action, seat=seat),
        lambda: functional.apply(rs, state, action, seat=seat),  # type: ignore[arg-type]
    ]
    for call in applies:
        if is_seat:
            attempt(call, IllegalActionError)
        else:
            with pytest.raises(SetupError) as info:
                call()
            refused_cleanly(info.value, SetupError)
    if not is_seat:
        assert copy.state == state and copy.log == game.log
        assert sim.snapshot() == state and list(sim.log) == game.log
    assert game.state == state


@pytest.mark.parametrize(
    "seat", [True, False, 1.0, (0,), b"0", "0", None, [0], HUGE, -HUGE], ids=quote
)
def test_setup_error_view_of_refuses_a_seat_of_another_type_or_size(seat: object) -> None:
    """SetupError: ``view_of`` and ``Game.view`` refuse a seat that is not an ``int`` of the
    game, ``True`` and ``False`` and 5000-digit numbers included, with a short message."""
    game = Game.new("usa", players=2, seed=3)
    with pytest.raises(SetupError, match="seat must be an integer from 0 to 1") as info:
        game.view(seat)  # type: ignore[arg-type]
    refused_cleanly(info.value, SetupError)
    with pytest.raises(SetupError, match="seat must be an integer from 0 to 1") as info:
        view_of(game.ruleset, game.state, seat)  # type: ignore[arg-type]
    refused_cleanly(info.value, SetupError)


# -- actions: TURN-1 and each mechanic's rule, whatever the size of a field ------------------------


@st.composite
def hostile_actions(draw: st.DrawFn) -> Action:
    """An action of any type with fields of any size (or another type)."""
    cls = draw(st.sampled_from(ACTION_TYPES))
    if cls is TakeFaceUp or cls is ChooseCard:
        return cls(card=draw(st.one_of(ints, any_value)))
    if cls is KeepTickets:
        tickets = draw(st.lists(st.one_of(ints, any_value), max_size=4))
        return KeepTickets(tickets=tuple(tickets))
    cards = draw(
        st.one_of(
            st.tuples(*[ints] * NUM_KINDS),
            st.lists(ints, max_size=NUM_KINDS + 2).map(tuple),
            any_value,
        )
    )
    if cls is ClaimRoute:
        return ClaimRoute(route=draw(st.one_of(ints, any_value)), cards=cards)
    if cls is ClaimWithGroups:
        return ClaimWithGroups(route=draw(ints), groups=draw(st.one_of(ints, any_value)))
    if cls is PayTunnel:
        return PayTunnel(cards=cards)
    if cls is BuildStation:
        return BuildStation(city=draw(st.one_of(st.text(max_size=3), any_value)), cards=cards)
    return cls()


@settings(max_examples=200)
@given(game=position, data=st.data())
def test_illegal_action_error_for_fields_of_any_size(game: Game, data: st.DataObject) -> None:
    """IllegalActionError: an action whose fields hold huge numbers (10**5000), negative
    ones or values of another type is refused by ``Game.apply``, ``Simulator.apply`` and
    the functional ``apply`` (TURN-1 or the mechanic's rule), and nothing changes."""
    action = data.draw(hostile_actions())
    rs, state = game.ruleset, game.state
    sim = game.simulator()
    log = len(sim.log)
    copy = _copy(game)
    for call in (
        lambda: copy.apply(action),
        lambda: sim.apply(action),
        lambda: functional.apply(rs, state, action),
    ):
        if attempt(call, IllegalActionError):
            return  # a legal action after all: nothing more to check
    assert copy.state == state and len(copy.log) == len(game.log)
    assert sim.snapshot() == state and len(sim.log) == log


def test_illegal_action_error_keep_tickets_of_a_huge_id() -> None:
    """TICKET-1 through IllegalActionError: keeping a ticket id of 5000 digits during the
    opening choice is refused with a short message, not Python's ValueError."""
    game = Game.new("usa", players=2, seed=1)
    state = game.state
    for action in (KeepTickets(tickets=(HUGE,)), KeepTickets(tickets=(-HUGE, HUGE))):
        with pytest.raises(IllegalActionError, match="TICKET-1") as info:
            game.apply(action)
        refused_cleanly(info.value, IllegalActionError)
    assert game.state == state


# -- listing indices: the documented IndexError ----------------------------------------------------


@settings(max_examples=120)
@given(game=position, k=st.one_of(ints, any_value), record=st.booleans())
def test_index_error_for_every_index_that_is_not_one(game: Game, k: object, record: bool) -> None:
    """IndexError (documented for choosing by index): ``apply_index`` and
    ``legal_action`` refuse anything but an ``int`` from 0 to the count minus one, huge
    and negative numbers included, and nothing changes."""
    sim = game.simulator(record=record)
    before = sim.snapshot()
    n = sim.legal_count()
    valid = type(k) is int and 0 <= k < n
    if not valid:
        for call in (lambda: sim.legal_action(k), lambda: sim.apply_index(k)):
            assert not attempt(call, IndexError)
        assert sim.snapshot() == before
        assert sim.legal_count() == n


@pytest.mark.parametrize("k", [HUGE, -HUGE], ids=quote)
def test_index_error_apply_index_of_a_huge_number(k: int) -> None:
    """IndexError: ``apply_index(10**5000)`` and ``legal_action(-10**5000)`` are refused
    with a short message (not Python's ValueError), on recording and plain simulators."""
    for record in (True, False):
        sim = Simulator.new("usa", 2, seed=4, record=record)
        before = sim.snapshot()
        with pytest.raises(IndexError, match="digits") as info:
            sim.apply_index(k)
        refused_cleanly(info.value, IndexError)
        with pytest.raises(IndexError, match="digits") as info:
            sim.legal_action(k)
        refused_cleanly(info.value, IndexError)
        assert sim.snapshot() == before


def test_ttr_errors_quote_no_value_in_full() -> None:
    """Every refusal above quotes a huge value by its size, so no message is long."""
    sim = positions()[1].simulator()
    with pytest.raises(TtrError) as info:
        sim.apply(ClaimRoute(route=HUGE, cards=(0,) * NUM_KINDS))
    assert "<int of 5001 digits>" in str(info.value)


@settings(max_examples=60)
@given(seat=any_value)
def test_setup_error_redact_and_make_bot_take_only_int_seats(seat: object) -> None:
    """SetupError: ``redact`` (which also takes -1, a spectator) and ``make_bot`` refuse a
    seat that is not an ``int`` of their range, of any type or size."""
    game = positions()[1]
    event = game.setup[-1]
    if type(seat) is int and seat >= -1:
        redact(event, seat)
    else:
        with pytest.raises(SetupError) as info:
            redact(event, seat)  # type: ignore[arg-type]
        refused_cleanly(info.value, SetupError)
    if type(seat) is int and 0 <= seat < 5:
        make_bot("random", game.ruleset, seat, 1)
    else:
        with pytest.raises(SetupError) as info:
            make_bot("random", game.ruleset, seat, 1)  # type: ignore[arg-type]
        refused_cleanly(info.value, SetupError)


@settings(max_examples=30)
@given(players=st.one_of(any_value, st.just(2)), seed=any_value, start=any_value)
def test_setup_error_for_a_game_set_up_with_values_of_any_type(
    players: object, seed: object, start: object
) -> None:
    """SetupError: ``Game.new``, ``Simulator.new`` and ``new_game`` refuse a player count,
    seed or start player of another type or size (a count of 5000 digits does not build
    a tuple of that many names; a seed too long to write in a record is refused)."""
    for new in (
        lambda: Game.new("usa", players, seed=seed, start_player=start),  # type: ignore[arg-type]
        lambda: Simulator.new("usa", players, seed=seed, start_player=start),  # type: ignore[arg-type]
        lambda: functional.new_game(rs_usa(), players, seed=seed, start_player=start),  # type: ignore[arg-type]
    ):
        attempt(new, SetupError)


@functools.cache
def rs_usa() -> Ruleset:
    return Ruleset.build("usa")
