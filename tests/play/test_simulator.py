"""The in-place Simulator checked against the functional API and against Game.

Step by step, a simulator and the functional chain reach equal states and list the same
legal actions in the same order; a recording simulator saves the very record a Game
played the same way saves; clones and a game's simulators are independent of where they
came from; refused actions, bad seats and bad indices leave everything as it was. Every
installed edition is covered, at its smallest and largest player counts; Hypothesis
draws the seeds, and each game's choices come from :mod:`ttr_core.model.rng` seeded by one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.model import rng
from ttr_core.model.actions import Action, ClaimRoute, DrawBlind, Pass, TakeFaceUp
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError, SetupError
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import SHARED_CACHE, PositionCache, apply, new_game
from ttr_core.play.game import Game
from ttr_core.play.legal import LegalActions
from ttr_core.play.simulator import Simulator
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


def table_dump(sim: Simulator) -> dict[str, Any]:
    """Every attribute of the simulator, lists copied: what a refusal must leave alone.

    Comparing this, not only ``snapshot()``, catches a change that a cached snapshot
    would hide until the next legal action.
    """
    dump: dict[str, Any] = {}
    for name in dir(sim):  # not vars(): the compiled build's simulator has no __dict__
        if name.startswith("__") or callable(getattr(type(sim), name, None)):
            continue
        value = getattr(sim, name)
        dump[name] = list(value) if isinstance(value, list) else value
    return dump


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
    assert sim.setup == list(game.setup)
    for step in range(MAX_DECISIONS):
        if step == save_at:
            assert sim.game().save() == game.save()
        if game.is_over:
            break
        legal = game.legal_actions()
        assert sim.legal_count() == len(legal)
        k = pick(len(legal))
        sim.apply_index(k)
        game.apply(legal[k])
        assert sim.log[-1] == game.log[-1], f"step {step}"
    assert sim.is_over
    assert sim.log == game.log
    text = game.save()
    assert sim.game().save() == text
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
    log = list(sim.log)
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
    clone_log = list(clone.log)
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
        assert sim.log == log
        assert sim.setup == list(game.setup)
    else:
        assert sim.log == []
    loaded = Simulator.from_state(rs, state, names=game.names)
    assert loaded.snapshot() == state
    assert loaded.legal_actions() == listing
    assert loaded.log == []

    play_on(sim, picker(data.draw(SEEDS, label="sim_choices")))
    assert game.state == state
    assert game.log == log
    assert list(game.legal_actions()) == listing
    sim_end = sim.snapshot()
    sim_log = list(sim.log)
    sim_dump = table_dump(sim)
    if record:
        assert Game.load(sim.game().save()).state == sim_end

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
    assert sim.setup == list(game.setup)
    assert sim.names == game.names
    assert sim.seed == game.seed == kwargs["seed"]
    assert sim.log == []
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
        cards[LOCO] = rs.route_len[r]
        out.append(ClaimRoute(route=rs.route_ids[r], cards=tuple(cards)))
    missing = [k for k in range(NUM_KINDS) if k not in state.display]
    out.append(TakeFaceUp(card=missing[pick(len(missing))]))
    if sim.legal_count_without_pass() > 0:
        out.append(Pass())
    return out


def accepted_by_clone(sim: Simulator, action: object) -> bool:
    """Whether ``apply`` takes ``action`` (tried on a clone; a refusal leaves it as it was)."""
    other = sim.clone()
    try:
        other.apply(action)  # type: ignore[arg-type]
    except IllegalActionError:
        assert other.snapshot() == sim.snapshot()
        assert other.log == sim.log
        return False
    assert len(other.log) == len(sim.log) + (1 if sim.record else 0)
    return True


def probe(rs: Ruleset, sim: Simulator, pick: Pick) -> None:
    """Offer arbitrary and hand-made actions and wrong seats; refusals change nothing."""
    state = sim.snapshot()
    legal = LegalActions(rs, state)
    assert len(legal) == sim.legal_count()
    for action in arbitrary_actions(rs, state, pick, 6, legal):
        accepted = accepted_by_clone(sim, action)
        assert sim.is_legal(action) == accepted, repr(action)
        if not accepted:
            assert_refused(sim, lambda a=action: sim.apply(a))
    for action in hand_made_illegal(rs, sim, state, pick):
        assert not sim.is_legal(action), repr(action)
        assert not accepted_by_clone(sim, action), repr(action)
        assert_refused(sim, lambda a=action: sim.apply(a))
    assert not sim.is_legal("DrawBlind")
    assert_refused(sim, lambda: sim.apply("DrawBlind"))  # type: ignore[arg-type]

    players = sim.players
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
            probe(rs, sim, choose)
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
    """``game()`` needs a log: on a simulator made with ``record=False`` it raises
    ``SetupError``, at the start and later; a recording one gives a Game at its position."""
    rs = ruleset(edition)
    quiet = Simulator.new(rs, seed=3, record=False)
    with pytest.raises(SetupError):
        quiet.game()
    play_on(quiet, picker(4), 25)
    with pytest.raises(SetupError):
        quiet.game()
    with pytest.raises(SetupError):
        quiet.clone().game()
    loud = Simulator.new(rs, seed=3)
    play_on(loud, picker(4), 25)
    assert loud.game().state == quiet.snapshot() == loud.snapshot()


def test_clones_of_a_silent_simulator_keep_their_own_log() -> None:
    """A clone of a ``record=False`` simulator that is told to record later writes its
    own log, never the original's."""
    sim = Simulator.new("usa", 2, seed=3, record=False)
    copy = sim.clone()
    copy.record = True
    copy.apply_index(0)
    assert sim.log == [] and sim.setup == []
    assert len(copy.log) == 1


def test_a_simulator_made_from_a_state_cannot_make_a_game() -> None:
    """``game()`` refuses a simulator built from a state: it has no recorded deal, so its
    record could not be replayed."""
    game = Game.new("usa", 2, seed=3)
    sim = Simulator.from_state(game.ruleset, game.state)
    with pytest.raises(SetupError, match="no recorded deal"):
        sim.game()


def test_load_forgets_the_log_so_no_record_replays_elsewhere() -> None:
    """SetupError (documented for ``game()``): a recording simulator loaded with another
    state forgets its deal and log, as one made with ``from_state`` has none, instead of
    saving a record that replays to a different position."""
    sim = Simulator.new("usa", 2, seed=1)
    for _ in range(6):
        sim.apply_index(0)
    other = Simulator.new("usa", 2, seed=2).snapshot()
    sim.load(other)
    assert sim.log == [] and sim.setup == [] and sim.seed is None
    assert sim.snapshot() == other
    with pytest.raises(SetupError, match="made from a state"):
        sim.game()
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
