"""The in-place Simulator checked against the functional API and against Game.

Step by step, a simulator and the functional chain reach equal states and list the same
legal actions in the same order; a recording simulator saves the very record a Game
played the same way saves; clones and a game's simulators are independent of where they
came from; refused actions, bad seats and bad indices leave everything as it was. Every
installed edition is covered, at its smallest and largest player counts; Hypothesis
draws the seeds, and each game's choices come from :mod:`ttr_core.model.rng` seeded by one.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, MutableSequence, Sequence
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve, fields
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_core.play.simulator as simulator_module
from ttr_core.model import events as ev
from ttr_core.model import rng
from ttr_core.model.actions import Action, ClaimRoute, DrawBlind, DrawTickets, Pass, TakeFaceUp
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError, RecordError, SetupError
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import SHARED_CACHE, PositionCache, apply, new_game
from ttr_core.play.game import Game
from ttr_core.play.legal import LegalActions
from ttr_core.play.records import RecordedChance
from ttr_core.play.simulator import Simulator
from ttr_core.rules.index import index_of, memos_of
from ttr_core.rules.views import view_of
from ttr_core.ruleset.editions import installed_editions
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing.play import option_sets, ruleset
from ttr_core.testing.space import arbitrary_actions

EDITIONS = sorted(installed_editions())
SEEDS = st.integers(0, 2**64 - 1)
MAX_DECISIONS = 5000
"""A game still running after this many decisions counts as one that does not end."""
FULL_LISTING_EVERY = 7
"""How often (in decisions) the differential test compares whole listings."""

Pick = Callable[[int], int]


def picker(seed: int) -> Pick:
    """Deterministic choices: ``pick(n)`` is a number in ``range(n)`` from ``rng``."""
    state = rng.seed_state(seed)

    def pick(n: int) -> int:
        nonlocal state
        k, state = rng.below(state, n)
        return k

    return pick


def extremes(rs: Ruleset) -> tuple[int, ...]:
    """The smallest and the largest player count of a ruleset."""
    lo, hi = rs.params.players
    return (lo, hi) if lo != hi else (lo,)


def draw_game(data: st.DataObject, edition: str) -> tuple[Ruleset, int, int, Pick]:
    """A ruleset (default options), a player count at either end, a seed and choices."""
    rs = ruleset(edition)
    players = data.draw(st.sampled_from(extremes(rs)), label="players")
    seed = data.draw(SEEDS, label="seed")
    pick = picker(data.draw(SEEDS, label="choices"))
    return rs, players, seed, pick


def play_on(sim: Simulator, pick: Pick, steps: int = MAX_DECISIONS) -> None:
    """Apply ``steps`` picked legal actions by index, or fewer if the game ends first."""
    for _ in range(steps):
        if sim.is_over:
            return
        n = sim.legal_count()
        assert n > 0, "a running game must offer an action"
        sim.apply_index(pick(n))
    assert steps < MAX_DECISIONS or sim.is_over, "the game did not end"


def play_game_on(game: Game, pick: Pick, steps: int = MAX_DECISIONS) -> None:
    """The same as :func:`play_on` for a :class:`Game` (actions taken from its listing)."""
    for _ in range(steps):
        if game.is_over:
            return
        legal = game.legal_actions()
        game.apply(legal[pick(len(legal))])
    assert steps < MAX_DECISIONS or game.is_over, "the game did not end"


def attributes(obj: object) -> dict[str, Any]:
    """Every attribute of ``obj`` that is not a method, lists copied."""
    dump: dict[str, Any] = {}
    for name in dir(obj):  # not vars(): the compiled build's classes have no __dict__
        if name.startswith("__") or callable(getattr(type(obj), name, None)):
            continue
        value = getattr(obj, name)
        dump[name] = list(value) if isinstance(value, list) else value
    return dump


def table_dump(sim: Simulator) -> dict[str, Any]:
    """Every attribute of the simulator and of its table (but the memos that all games of
    its ruleset share and fill as they list): what a refusal must leave alone.

    Comparing this, not only ``snapshot()``, catches a change that a cached snapshot
    would hide until the next legal action.
    """
    memos = memos_of(sim.ruleset)
    shared = {id(getattr(memos, a.name)) for a in fields(type(memos))}
    own = {
        name: value
        for name, value in attributes(sim).items()
        if id(getattr(sim, name)) not in shared  # the ruleset's memos, shared by its games
    }
    return {"simulator": own, "table": attributes(sim._table)}


def assert_refused(
    sim: Simulator,
    attempt: Callable[[], object],
    error: type[Exception] = IllegalActionError,
    rule: str | None = None,
) -> None:
    """``attempt`` raises ``error`` (naming ``rule`` if given) and changes nothing."""
    state = sim.snapshot()
    count = sim.legal_count()
    logged = len(sim.log)
    dump = table_dump(sim)
    with pytest.raises(error) as info:
        attempt()
    if rule is not None:
        assert getattr(info.value, "rule", None) == rule, str(info.value)
    assert sim.snapshot() == state
    assert sim.legal_count() == count
    assert len(sim.log) == logged
    assert table_dump(sim) == dump


# -- 1. the simulator and the functional API agree ------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=20)
@given(data=st.data())
def test_simulator_agrees_with_functional_chain(edition: str, data: st.DataObject) -> None:
    """A non-recording simulator played by ``apply_index(k)`` and the functional chain
    (``apply`` of ``LegalActions(...)[k]``) reach equal states after every action and
    list the same actions in the same order (counts always, whole lists every few steps);
    any option set of the edition, its smallest or largest player count."""
    options = data.draw(st.sampled_from(option_sets(edition)), label="options")
    rs = ruleset(edition, options)
    players = data.draw(st.sampled_from(extremes(rs)), label="players")
    seed = data.draw(SEEDS, label="seed")
    pick = picker(data.draw(SEEDS, label="choices"))

    sim = Simulator.new(rs, players, seed=seed, record=False)
    state = new_game(rs, players, seed=seed)
    assert sim.snapshot() == state
    for step in range(MAX_DECISIONS):
        legal = LegalActions(rs, state)
        n = sim.legal_count()
        assert n == len(legal), f"step {step}"
        if step % FULL_LISTING_EVERY == 0 or state.phase is not Phase.TURN or n == 0:
            assert sim.legal_actions() == list(legal), f"step {step}"
        assert sim.is_over == state.is_over
        if state.is_over:
            break
        assert sim.current_player == state.current
        k = pick(n)
        action = legal[k]
        sim.apply_index(k)
        # An equal but new action object, so the functional side checks it against the
        # rules instead of trusting the listing that built it; every few steps an equal
        # copy of the state too, so that it is loaded onto a new table, not played on.
        before = evolve(state) if step % 5 == 0 else state
        state = apply(rs, before, evolve(action))
        assert sim.snapshot() == state, f"step {step}: {action!r}"
    else:
        pytest.fail("the game did not end")
    assert sim.is_over
    assert sim.legal_count() == 0
    assert sim.legal_actions() == []


# -- 2. a recording simulator makes the same record as a Game --------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=15)
@given(data=st.data())
def test_recording_simulator_saves_what_game_saves(edition: str, data: st.DataObject) -> None:
    """A recording simulator and a Game given the same choices keep equal logs and save
    byte-identical records, mid-game and at the end; loading the record gives back the
    final state and the scores."""
    rs, players, seed, pick = draw_game(data, edition)
    start = data.draw(st.integers(0, players - 1), label="start_player")
    named = data.draw(st.booleans(), label="named")
    seats: int | list[str] = [f"Seat {chr(65 + i)}" for i in range(players)] if named else players
    save_at = data.draw(st.integers(0, 80), label="save_at")

    sim = Simulator.new(rs, seats, seed=seed, start_player=start)
    game = Game.new(rs, seats, seed=seed, start_player=start)
    assert sim.setup == game.setup
    for step in range(MAX_DECISIONS):
        if step == save_at:
            assert Game.from_simulator(sim).save() == game.save()
        if game.is_over:
            break
        legal = game.legal_actions()
        assert sim.legal_count() == len(legal)
        k = pick(len(legal))
        sim.apply_index(k)
        game.apply(legal[k])
        assert sim.log[-1] == game.log[-1], f"step {step}"
    assert sim.is_over
    assert list(sim.log) == game.log
    text = game.save()
    assert Game.from_simulator(sim).save() == text
    loaded = Game.load(text)
    assert loaded.state == sim.snapshot() == game.state
    assert loaded.scores() == sim.scores() == game.scores()


# -- 3. clones and a game's simulators are independent ---------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=15)
@given(data=st.data())
def test_clones_are_independent(edition: str, data: st.DataObject) -> None:
    """A clone played to the end leaves the original's state, listing and log as they
    were; the original played on leaves the finished clone alone (every attribute, not
    only the snapshot); and a clone played with the original's choices ends where the
    original does."""
    rs, players, seed, pick = draw_game(data, edition)
    record = data.draw(st.booleans(), label="record")
    fork_at = data.draw(st.integers(0, 500), label="fork_at")
    sim = Simulator.new(rs, players, seed=seed, record=record)
    play_on(sim, pick, fork_at)

    clone = sim.clone()
    twin = sim.clone()
    state = sim.snapshot()
    listing = sim.legal_actions()
    log = sim.log
    assert clone.snapshot() == state
    assert clone.legal_actions() == listing
    assert clone.log == log

    dump = table_dump(sim)
    play_on(clone, picker(data.draw(SEEDS, label="clone_choices")))
    assert clone.is_over
    assert table_dump(sim) == dump
    assert sim.snapshot() == state
    assert sim.legal_count() == len(listing)
    assert sim.legal_actions() == listing
    assert sim.log == log
    clone_end = clone.snapshot()
    clone_log = clone.log
    clone_dump = table_dump(clone)

    later = data.draw(SEEDS, label="later_choices")
    play_on(sim, picker(later))
    assert table_dump(clone) == clone_dump
    assert clone.snapshot() == clone_end
    assert clone.log == clone_log
    assert twin.snapshot() == state
    play_on(twin, picker(later))
    assert twin.snapshot() == sim.snapshot()
    assert twin.log == sim.log


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=15)
@given(data=st.data())
def test_game_simulator_is_independent_of_game(edition: str, data: st.DataObject) -> None:
    """``game.simulator()`` starts at the game's position (with its deal and log when
    recording); playing it to the end leaves the game's state, log and listing as they
    were (the game then plays on as its reloaded record does), and playing the game on
    leaves the simulator alone. ``from_state`` at the same position lists the same
    actions and starts with an empty log."""
    rs, players, seed, pick = draw_game(data, edition)
    record = data.draw(st.booleans(), label="record")
    game = Game.new(rs, players, seed=seed)
    play_game_on(game, pick, data.draw(st.integers(0, 500), label="steps"))
    state = game.state
    log = list(game.log)
    listing = list(game.legal_actions())
    reference = Game.load(game.save())

    sim = game.simulator(record=record)
    assert sim.snapshot() == state
    assert sim.legal_actions() == listing
    assert sim.names == game.names
    if record:
        assert list(sim.log) == log
        assert sim.setup == game.setup
        assert sim.seed == game.seed
    else:
        assert sim.log == ()
    loaded = Simulator.from_state(rs, state, names=game.names)
    assert loaded.snapshot() == state
    assert loaded.legal_actions() == listing
    assert loaded.log == () and loaded.setup == () and loaded.seed is None

    play_on(sim, picker(data.draw(SEEDS, label="sim_choices")))
    assert game.state == state
    assert game.log == log
    assert list(game.legal_actions()) == listing
    sim_end = sim.snapshot()
    sim_log = sim.log
    sim_dump = table_dump(sim)
    if record:
        assert Game.load(Game.from_simulator(sim).save()).state == sim_end

    # Played on, the game goes exactly where the same game rebuilt from its record goes.
    later = data.draw(SEEDS, label="game_choices")
    play_game_on(game, picker(later))
    play_game_on(reference, picker(later))
    assert game.state == reference.state
    assert game.save() == reference.save()
    assert table_dump(sim) == sim_dump
    assert sim.snapshot() == sim_end
    assert sim.log == sim_log


@pytest.mark.parametrize("edition", EDITIONS)
@given(data=st.data())
def test_new_deals_the_game_that_game_new_deals(edition: str, data: st.DataObject) -> None:
    """``Simulator.new`` and ``Game.new`` given the same arguments (edition or ruleset,
    player count or names, seed, start player, options) deal equal states, with the same
    setup events and names."""
    options = data.draw(st.sampled_from(option_sets(edition)), label="options")
    rs = ruleset(edition, options)
    players = data.draw(st.sampled_from(extremes(rs)), label="players")
    seats: int | list[str] = data.draw(
        st.sampled_from([players, [f"P{i}" for i in range(players, 0, -1)]]), label="seats"
    )
    kwargs: dict[str, Any] = {
        "seed": data.draw(SEEDS, label="seed"),
        "start_player": data.draw(st.integers(0, players - 1), label="start_player"),
    }
    if data.draw(st.booleans(), label="by_name"):
        args: tuple[Any, ...] = (edition, seats)
        kwargs["options"] = options
    else:
        args = (rs, seats)
    sim = Simulator.new(*args, **kwargs)
    game = Game.new(*args, **kwargs)
    assert sim.snapshot() == game.state
    assert sim.setup == game.setup
    assert sim.names == game.names
    assert sim.seed == game.seed == kwargs["seed"]
    assert sim.log == ()
    assert sim.legal_actions() == list(game.legal_actions())


# -- 4. a refused action changes nothing -----------------------------------------------------


def hand_made_illegal(rs: Ruleset, sim: Simulator, state: GameState, pick: Pick) -> list[Action]:
    """Actions the rules refuse in ``state``: a claim of a claimed track, a face-up card
    of a kind not on display, a pass while other actions exist."""
    out: list[Action] = []
    owned = [r for r, seat in enumerate(state.owners) if seat >= 0]
    if owned:
        r = owned[pick(len(owned))]
        cards = [0] * NUM_KINDS
        cards[LOCO] = index_of(rs).route_len[r]
        out.append(ClaimRoute(route=index_of(rs).route_ids[r], cards=tuple(cards)))
    missing = [k for k in range(NUM_KINDS) if k not in state.display]
    out.append(TakeFaceUp(card=missing[pick(len(missing))]))
    if LegalActions(rs, state).count_without_pass() > 0:
        out.append(Pass())
    return out


def accepted_by_clone(sim: Simulator, action: object, *, record: bool) -> bool:
    """Whether ``apply`` takes ``action`` (tried on a clone; a refusal leaves it as it
    was); ``record`` says whether ``sim`` records."""
    other = sim.clone()
    try:
        other.apply(action)
    except IllegalActionError:
        assert other.snapshot() == sim.snapshot()
        assert other.log == sim.log
        return False
    assert len(other.log) == len(sim.log) + (1 if record else 0)
    return True


def probe(rs: Ruleset, sim: Simulator, pick: Pick, *, record: bool) -> None:
    """Offer arbitrary and hand-made actions and wrong seats; refusals change nothing."""
    state = sim.snapshot()
    legal = LegalActions(rs, state)
    assert len(legal) == sim.legal_count()
    for action in arbitrary_actions(rs, state, pick, 6, legal):
        accepted = accepted_by_clone(sim, action, record=record)
        assert sim.is_legal(action) == accepted, repr(action)
        if not accepted:
            assert_refused(sim, lambda a=action: sim.apply(a))
    for action in hand_made_illegal(rs, sim, state, pick):
        assert not sim.is_legal(action), repr(action)
        assert not accepted_by_clone(sim, action, record=record), repr(action)
        assert_refused(sim, lambda a=action: sim.apply(a))
    assert not sim.is_legal("DrawBlind")
    assert_refused(sim, lambda: sim.apply("DrawBlind"))

    players = len(sim.names)
    action = sim.legal_action(pick(len(legal))) if len(legal) else DrawBlind()
    for bad in (-1, players, True, False, "0", 1.0):
        assert_refused(sim, lambda s=bad: sim.apply(action, seat=s), SetupError)
    for seat in range(players):
        if sim.is_over:
            assert_refused(sim, lambda s=seat: sim.apply(action, seat=s), rule="END-2")
        elif seat != sim.current_player:
            assert_refused(sim, lambda s=seat: sim.apply(action, seat=s), rule="TURN-4")
    if sim.is_over:
        assert not sim.is_legal(action)
    else:
        assert sim.is_legal(action)
        other = sim.clone()
        other.apply(action, seat=sim.current_player)
        assert other.snapshot() == apply(rs, state, action)


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=10)
@given(data=st.data())
def test_refused_actions_change_nothing(edition: str, data: st.DataObject) -> None:
    """TURN-4 / END-2: at positions of every phase a game passes through (the first of
    each phase, more at random, and the end), arbitrary actions, hand-made illegal
    ones and actions from the wrong seat are refused with ``IllegalActionError`` (a seat
    that is no seat: ``SetupError``), leaving the state, the listing, the log and every
    other attribute as they were; ``is_legal`` agrees with ``apply``; and the game then
    plays on exactly as the functional chain does."""
    rs, players, seed, pick = draw_game(data, edition)
    choose = picker(data.draw(SEEDS, label="probe_choices"))
    record = data.draw(st.booleans(), label="record")
    sim = Simulator.new(rs, players, seed=seed, record=record)
    state = new_game(rs, players, seed=seed)
    probed: set[Phase] = set()
    for step in range(MAX_DECISIONS):
        phase = sim.snapshot().phase
        if phase not in probed or choose(12) == 0:
            probe(rs, sim, choose, record=record)
            probed.add(phase)
        assert sim.snapshot() == state
        assert len(sim.log) == (step if record else 0)
        if sim.is_over:
            break
        legal = LegalActions(rs, state)
        k = pick(len(legal))
        sim.apply_index(k)
        state = apply(rs, state, legal[k])
    assert sim.is_over
    assert Phase.GAME_OVER in probed


# -- 5. indices, scores and records ----------------------------------------------------------


@pytest.mark.parametrize("record", [True, False])
@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=10)
@given(data=st.data())
def test_apply_index_out_of_range_changes_nothing(
    edition: str, record: bool, data: st.DataObject
) -> None:
    """``apply_index`` and ``legal_action`` with an index below 0 or at least
    ``legal_count()`` raise ``IndexError`` and change nothing, at any position and once
    the game is over (when every index is out of range)."""
    rs, players, seed, pick = draw_game(data, edition)
    sim = Simulator.new(rs, players, seed=seed, record=record)
    play_on(sim, pick, data.draw(st.integers(0, 600), label="steps"))
    n = sim.legal_count()
    for k in (-1, -n - 1, n, n + 1, 10**9):
        assert_refused(sim, lambda k=k: sim.apply_index(k), IndexError)
        assert_refused(sim, lambda k=k: sim.legal_action(k), IndexError)
    play_on(sim, pick)
    assert sim.legal_count() == 0
    for k in (0, 1, -1):
        assert_refused(sim, lambda k=k: sim.apply_index(k), IndexError)


@pytest.mark.parametrize("record", [True, False])
@pytest.mark.parametrize("edition", ["usa", "nordic"])
def test_apply_index_refuses_indices_that_are_not_ints(edition: str, record: bool) -> None:
    """``apply_index`` and ``legal_action`` refuse an index that is not an ``int`` (a
    bool, a float, text, None) with ``IndexError`` and change nothing, in the opening
    ticket choice and in a turn, whether or not the simulator records."""
    sim = Simulator.new(edition, 2, seed=7, record=record)
    pick = picker(11)
    for _ in range(2):
        for k in (True, 1.0, 5.0, "1", None):
            assert_refused(sim, lambda k=k: sim.legal_action(k), IndexError)
            assert_refused(sim, lambda k=k: sim.apply_index(k), IndexError)
        while sim.snapshot().phase is not Phase.TURN:
            sim.apply_index(pick(sim.legal_count()))


@pytest.mark.parametrize("edition", EDITIONS)
@given(data=st.data())
def test_scores_equal_game_scores_at_the_end(edition: str, data: st.DataObject) -> None:
    """A non-recording simulator and a Game played with the same choices end with equal
    states and equal scoresheets."""
    rs = ruleset(edition)
    players = data.draw(st.sampled_from(extremes(rs)), label="players")
    seed = data.draw(SEEDS, label="seed")
    choices = data.draw(SEEDS, label="choices")
    sim = Simulator.new(rs, players, seed=seed, record=False)
    game = Game.new(rs, players, seed=seed)
    play_on(sim, picker(choices))
    play_game_on(game, picker(choices))
    assert sim.is_over and game.is_over
    assert sim.snapshot() == game.state
    assert sim.scores() == game.scores()
    assert sim.scores().winners


@pytest.mark.parametrize("edition", EDITIONS)
def test_game_of_non_recording_simulator_is_refused(edition: str) -> None:
    """``Game.from_simulator`` needs a deal and a log: a simulator made with
    ``record=False`` is refused with ``SetupError``, at the start and later, and so is its
    clone; a recording one gives a Game at its position."""
    rs = ruleset(edition)
    quiet = Simulator.new(rs, seed=3, record=False)
    assert quiet.setup == () and quiet.log == ()
    with pytest.raises(SetupError, match="records nothing"):
        Game.from_simulator(quiet)
    play_on(quiet, picker(4), 25)
    assert quiet.log == ()
    with pytest.raises(SetupError, match="records nothing"):
        Game.from_simulator(quiet)
    with pytest.raises(SetupError, match="records nothing"):
        Game.from_simulator(quiet.clone())
    loud = Simulator.new(rs, seed=3)
    play_on(loud, picker(4), 25)
    assert Game.from_simulator(loud).state == quiet.snapshot() == loud.snapshot()


def test_a_simulator_made_from_a_state_cannot_make_a_game() -> None:
    """``Game.from_simulator`` refuses a simulator built from a state: it has no recorded
    deal, so its record could not be replayed."""
    game = Game.new("usa", 2, seed=3)
    sim = Simulator.from_state(game.ruleset, game.state)
    with pytest.raises(SetupError, match="no recorded deal"):
        Game.from_simulator(sim)


def test_load_forgets_the_log_so_no_record_replays_elsewhere() -> None:
    """SetupError (documented for ``Game.from_simulator``): a recording simulator loaded
    with another state forgets its deal and log, as one made with ``from_state`` has
    none, instead of saving a record that replays to a different position."""
    sim = Simulator.new("usa", 2, seed=1)
    for _ in range(6):
        sim.apply_index(0)
    other = Simulator.new("usa", 2, seed=2).snapshot()
    sim.load(other)
    assert sim.log == () and sim.setup == () and sim.seed is None
    assert sim.snapshot() is other
    with pytest.raises(SetupError, match="loaded with a state"):
        Game.from_simulator(sim)
    sim.apply_index(0)
    assert len(sim.log) == 1  # recording goes on from the loaded position


def test_setting_a_game_state_forgets_the_log_and_refuses_to_save() -> None:
    """SetupError: ``Game.state = other`` moves the game on from ``other``, but its deal
    and log no longer lead there, so saving is refused instead of writing a record that
    replays to another position; a replayed record still saves (it keeps its log)."""
    game = Game.new("usa", players=2, seed=1)
    game.apply(game.legal_actions()[0])
    again = Game.load(game.save())
    assert again.save() == game.save()
    game.state = Game.new("usa", players=2, seed=2).state
    assert game.log == [] and game.setup == ()
    with pytest.raises(SetupError, match="no recorded deal"):
        game.save()
    game.apply(game.legal_actions()[0])
    assert len(game.log) == 1


def test_functional_api_plays_the_same_with_its_own_cache_or_none() -> None:
    """The functional API's cache only saves time: a caller's own ``PositionCache``, the
    shared one and a cleared one give the same states, and the ruleset keeps no state."""
    rs = ruleset("usa")
    mine = PositionCache(size=2)
    a = b = new_game(rs, 2, seed=3)
    c = new_game(rs, 2, seed=3, cache=mine)
    for step in range(40):
        a = apply(rs, a, LegalActions(rs, a)[step % 3 if step > 1 else 0])
        b = apply(rs, b, LegalActions(rs, b)[step % 3 if step > 1 else 0])
        SHARED_CACHE.clear()
        c = apply(rs, c, LegalActions(rs, c, cache=mine)[step % 3 if step > 1 else 0], cache=mine)
        assert a == b == c
        assert 1 <= len(mine) <= 2
    mine.clear()
    assert len(mine) == 0
    assert not hasattr(rs, "positions")
    for size in (0, True, -(10**5000), 2.0):
        with pytest.raises(SetupError, match="at least 1"):
            PositionCache(size=size)


def test_functional_api_plays_on_from_a_state_more_than_once() -> None:
    """A state played on from again (a search trying every action) gives what a fresh
    simulator gives, each time, its listing stays valid, and a refused action changes
    nothing; a game played forward from the same cache afterwards is unchanged too."""
    rs = ruleset("europe")
    mine = PositionCache()
    state = new_game(rs, 3, seed=5, cache=mine)
    for _ in range(30):
        state = apply(rs, state, LegalActions(rs, state, cache=mine)[-1], cache=mine)
    legal = LegalActions(rs, state, cache=mine)
    for round_ in range(2):
        for k, action in enumerate(legal):
            expected = Simulator.from_state(rs, state, record=False)
            expected.apply(action)
            assert apply(rs, state, action, cache=mine) == expected.snapshot(), (round_, k)
            assert legal[k] == action
        with pytest.raises(IllegalActionError):
            apply(rs, state, ClaimRoute(route=-1, cards=(0,) * 9), cache=mine)
    forward = apply(rs, state, legal[0], cache=mine)
    fresh = apply(rs, state, legal[0], cache=PositionCache())
    for _ in range(20):
        assert forward == fresh
        forward = apply(rs, forward, LegalActions(rs, forward, cache=mine)[0], cache=mine)
        fresh = apply(rs, fresh, LegalActions(rs, fresh)[0])


@pytest.mark.parametrize("edition", EDITIONS)
def test_is_legal_answers_draws_as_apply_does(edition: str) -> None:
    """TURN-1, DRAW-1 to DRAW-4, TICKET-2: ``is_legal`` answers taking each face-up card,
    the blind draw and drawing tickets from the counted listing; at every decision of two
    games, in every phase, that is what ``apply`` takes, for wrong cards too."""
    rs = ruleset(edition)
    draws: list[object] = [TakeFaceUp(card=k) for k in range(-1, NUM_KINDS + 1)]
    draws += [TakeFaceUp(card=True), DrawBlind(), DrawTickets()]  # type: ignore[arg-type]
    seen: set[Phase] = set()
    for seed in (3, 8):
        sim = Simulator.new(rs, 3, seed=seed, record=False)
        pick = picker(seed)
        while not sim.is_over:
            seen.add(sim.snapshot().phase)
            for action in draws:
                assert sim.is_legal(action) == accepted_by_clone(sim, action, record=False)
            sim.apply_index(pick(sim.legal_count()))
    assert {Phase.TURN, Phase.SECOND_CARD, Phase.KEEP_TICKETS} <= seen


# -- 6. the facade: its names, recording through its calls, the checks by action type -------

PUBLIC_NAMES = {
    "new",
    "from_state",
    "clone",
    "load",
    "legal_count",
    "legal_action",
    "legal_actions",
    "is_legal",
    "apply",
    "apply_index",
    "snapshot",
    "view",
    "current_player",
    "is_over",
    "scores",
    "ruleset",
    "names",
    "seed",
    "setup",
    "log",
}
"""The simulator's public names, as its class documentation lists them."""


def test_the_simulator_offers_its_documented_names_only() -> None:
    """The simulator's public names are the twenty its documentation lists; the table it
    plays on is its own, and its docstring names every one of them."""
    sim = Simulator.new("usa", 2, seed=1)
    public = {name for name in dir(sim) if not name.startswith("_")}
    assert public == PUBLIC_NAMES
    assert len(public) <= 20
    # A compiled class keeps no docstring of its own: read the one in the source.
    source = Path(simulator_module.__file__ or "").parent / "simulator.py"
    tree = ast.parse(source.read_text("utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Simulator"]
    doc = ast.get_docstring(cls) or ""
    assert all(f"{name}`" in doc for name in PUBLIC_NAMES)
    assert not isinstance(sim, type(sim._table))


@pytest.mark.parametrize(
    ("edition", "players", "also"),
    [
        ("usa", 4, set()),
        ("europe", 3, {Phase.TUNNEL}),
        ("india", 2, set()),
        ("switzerland", 3, {Phase.TUNNEL}),
        ("nordic", 3, {Phase.TUNNEL, Phase.CHOOSE_CARDS}),
    ],
)
def test_views_read_from_the_table_are_the_views_of_the_snapshot(
    edition: str, players: int, also: set[Phase]
) -> None:
    """SETUP-6, TURN-4: at every decision of a game (offers, tunnels and card choices),
    each seat's view, made from the simulator's table without a snapshot, is ``view_of``
    the snapshot taken after it."""
    rs = ruleset(edition)
    sim = Simulator.new(rs, players, seed=11, record=False)
    pick = picker(3)
    phases = set()
    while not sim.is_over:
        views = [sim.view(seat) for seat in range(players)]
        state = sim.snapshot()
        phases.add(state.phase)
        assert views == [view_of(rs, state, seat) for seat in range(players)]
        sim.apply_index(pick(sim.legal_count()))
    seen = {Phase.OPENING_TICKETS, Phase.TURN, Phase.SECOND_CARD, Phase.KEEP_TICKETS}
    assert seen | also <= phases


@pytest.mark.parametrize("edition", EDITIONS)
def test_an_action_found_legal_is_applied_unchecked_only_where_it_was_checked(
    edition: str,
) -> None:
    """TURN-1: ``apply`` takes an action that ``is_legal`` has just found legal without
    checking it a second time, and only at that very position. At every decision of two
    games, a copy of the chosen action (not the listing's own object) found legal applies
    to the position a clone reaches by applying it unasked; an action found legal at the
    decision before, and illegal now, is refused and changes nothing."""
    rs = ruleset(edition)
    refused = 0
    for seed in (2, 9):
        sim = Simulator.new(rs, 3, seed=seed, record=False)
        pick = picker(seed)
        earlier: list[Action] = []
        while not sim.is_over:
            for action in earlier:
                if not accepted_by_clone(sim, action, record=False):
                    assert_refused(sim, functools.partial(sim.apply, action))
                    refused += 1
            n = sim.legal_count()
            k = pick(n)
            chosen = evolve(sim.legal_action(k))
            other = evolve(sim.legal_action((k + 1) % n))
            fresh = sim.clone()
            fresh.apply(evolve(chosen))
            assert sim.is_legal(other)
            assert sim.is_legal(chosen)
            sim.apply(chosen)
            assert sim.snapshot() == fresh.snapshot()
            assert sim.legal_actions() == fresh.legal_actions()
            # ``other`` was found legal last at the position before; ``earlier`` is tried
            # there again at the next decision.
            earlier = [other]
            if sim.is_over:
                break
            marked = evolve(sim.legal_action(0))
            assert sim.is_legal(marked)
            sim.apply_index(pick(sim.legal_count()))
            earlier.append(marked)
    assert refused > 20


@pytest.mark.parametrize(
    ("edition", "players"),
    [("usa", 4), ("europe", 3), ("india", 2), ("switzerland", 3), ("nordic", 3)],
)
def test_decision_facts_are_the_snapshots_parts(edition: str, players: int) -> None:
    """What the search bot's playouts read at each step without a snapshot (the phase, the
    seat to act with its hand, trains and tickets, the display, the owners, the final-round
    trigger and the seat count) is what the snapshot holds, at every decision of a game; the
    tickets are the snapshot's very tuple, which a playout compares by identity."""
    rs = ruleset(edition)
    sim = Simulator.new(rs, players, seed=7, record=False)
    pick = picker(4)
    while not sim.is_over:
        facts = sim._decision_facts()
        state = sim.snapshot()
        me = state.players[state.current]
        assert (facts.phase, facts.seat, facts.hand, facts.trains) == (
            state.phase,
            state.current,
            me.hand,
            me.trains,
        )
        assert (facts.display, facts.owners, facts.final_trigger, facts.players) == (
            state.display,
            state.owners,
            state.final_trigger,
            players,
        )
        assert facts.tickets is me.tickets
        sim.apply_index(pick(sim.legal_count()))


def test_view_is_the_seats_view_of_the_snapshot() -> None:
    """``view(seat)`` is ``view_of`` the snapshot for that seat; a seat that is none is a
    ``SetupError``, as ``view_of`` gives."""
    rs = ruleset("usa")
    sim = Simulator.new(rs, 3, seed=5)
    play_on(sim, picker(2), 12)
    for seat in range(3):
        assert sim.view(seat) == view_of(rs, sim.snapshot(), seat)
    for bad in (3, -1, True, "0"):
        with pytest.raises(SetupError):
            sim.view(bad)


@pytest.mark.parametrize("record", [True, False])
def test_apply_collects_events_into_a_list_given(record: bool) -> None:
    """``apply(action, events=sink)`` appends the action's events to ``sink`` whether or not
    the simulator records, returns them, and appends nothing when the action is refused;
    ``new(..., events=sink)`` appends the deal's events. They are the events a Game gives."""
    rs = ruleset("usa")
    dealt: list[ev.Event] = []
    sim = Simulator.new(rs, 2, seed=9, record=record, events=dealt)
    game = Game.new(rs, 2, seed=9)
    assert tuple(dealt) == game.setup
    assert sim.setup == (game.setup if record else ())
    pick = picker(3)
    for _ in range(30):
        sink: list[ev.Event] = [ev.Passed(player=0)]
        action = sim.legal_action(pick(sim.legal_count()))
        returned = sim.apply(action, events=sink)
        assert sink[1:] == returned == game.apply(action)
        with pytest.raises(IllegalActionError):
            sim.apply("not an action", events=sink)
        assert len(sink) == len(returned) + 1
    assert sim.log == (tuple(game.log) if record else ())


def test_apply_takes_shuffles_from_a_chance_source_given() -> None:
    """``apply(action, chance=source)`` takes the action's shuffles from ``source`` (as a
    replay does), so a seedless simulator plays a recorded game on; a source that holds
    another shuffle is refused and nothing changes."""
    rs = ruleset("usa")
    game = Game.new(rs, 2, seed=4)
    play_game_on(game, picker(6))
    record = game.record()
    sim = Simulator.new(
        rs, 2, seed=None, chance=RecordedChance(record.setup, "setup"), record=False
    )
    assert sim.snapshot().rng == -1
    refused = 0
    for i, entry in enumerate(record.log):
        if any(isinstance(e, ev.Shuffled) for e in entry.events):
            state = sim.snapshot()
            with pytest.raises(RecordError, match=r"shuffle .* is not recorded"):
                sim.apply(entry.action, chance=RecordedChance((), f"log[{i}]"))
            assert sim.snapshot() == state
            refused += 1
        sim.apply(entry.action, chance=RecordedChance(entry.events, f"log[{i}]"))
    assert refused > 0, "the game reshuffles"
    assert evolve(sim.snapshot(), rng=game.state.rng) == game.state


def test_every_action_type_has_one_check() -> None:
    """The checks the mechanics offer cover every action type but ``Pass`` (the
    simulator's own) exactly once, and an action of an unknown type is refused."""
    from ttr_core.play.simulator import _CHECKS
    from ttr_core.rules import card_groups, drawing, stations, tickets, tunnels

    parts = [drawing.CHECKS, tickets.CHECKS, tunnels.CHECKS, card_groups.CHECKS, stations.CHECKS]
    assert sum(len(part) for part in parts) == len(_CHECKS)
    kinds = {kind for kind in Action.__subclasses__() if kind.__module__ == Action.__module__}
    assert set(_CHECKS) | {Pass} == kinds
    sim = Simulator.new("usa", 2, seed=1)

    class Mine(DrawBlind):
        pass

    with pytest.raises(IllegalActionError, match="not an action of this game") as info:
        sim.apply(Mine())
    assert info.value.rule == "TURN-1"


class _Index:
    """An integer-like object of another type (as a NumPy integer is)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_a_listing_is_a_sequence_with_every_sequence_method() -> None:
    """``LegalActions`` is a ``Sequence`` (by registration, see ``SequenceBase``) and has
    every method a Sequence gives: ``reversed``, ``index`` (with ``start`` and ``stop``, and
    ``ValueError`` for an action not listed there) and ``count``, agreeing with the list of
    its actions."""
    game = Game.new("usa", 2, seed=3)
    legal = game.legal_actions()
    listed = list(legal)
    assert isinstance(legal, Sequence) and not isinstance(legal, MutableSequence)
    assert list(reversed(legal)) == listed[::-1]
    for i, action in enumerate(listed):
        assert legal.index(action) == listed.index(action) == i
        assert legal.count(action) == 1
        assert legal.index(action, i, i + 1) == i
    last = listed[-1]
    assert legal.index(last, -1) == len(listed) - 1
    with pytest.raises(ValueError):
        legal.index(last, 0, -1)
    game.apply(listed[0])
    gone = next(a for a in listed if a not in game.legal_actions())
    with pytest.raises(ValueError):
        game.legal_actions().index(gone)
    assert game.legal_actions().count(gone) == 0
    assert list(legal) == listed  # the old listing still lists its own position


def test_a_listing_is_indexed_as_a_list_is() -> None:
    """``LegalActions`` takes any integer index, as a list does (``operator.index``): a
    bool or an object with ``__index__`` picks the same action as the int; a str, a
    float or None raises ``TypeError``; an index out of range raises ``IndexError``."""
    legal = Game.new("usa", 2, seed=3).legal_actions()
    listed = list(legal)
    assert len(listed) >= 3
    assert legal[True] is listed[1] and legal[False] is listed[0]
    assert legal[_Index(2)] is listed[2] and legal[_Index(-1)] is listed[-1]
    assert list(legal[1:3]) == listed[1:3]
    for bad in ("1", 1.0, None):
        with pytest.raises(TypeError):
            legal[bad]  # type: ignore[call-overload]
    for out in (len(listed), -len(listed) - 1, _Index(len(listed))):
        with pytest.raises(IndexError):
            legal[out]  # type: ignore[call-overload]
