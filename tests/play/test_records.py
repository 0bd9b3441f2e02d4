"""Saved game records: round trips, replays, determinism and corrupted records."""

from __future__ import annotations

import json
import random

import pytest
from attrs import evolve

from ttr_core import Game, GameRecord, IllegalActionError, Pass, RecordError
from ttr_core.model.events import BlindDrawn
from ttr_core.model.state import Phase


def play(game, decisions=None, choice_seed=0):
    """Play random legal actions (all of them to the end if ``decisions`` is None)."""
    chooser = random.Random(choice_seed)
    n = 0
    while not game.is_over and (decisions is None or n < decisions):
        legal = game.legal_actions()
        game.apply(legal[chooser.randrange(len(legal))])
        n += 1
    return game


@pytest.fixture(scope="module")
def finished():
    return play(Game.new("usa", players=3, seed=17), choice_seed=5)


@pytest.fixture(scope="module")
def saved(finished):
    return finished.save(compact=False)


def mutated(text, change):
    raw = json.loads(text)
    change(raw)
    return json.dumps(raw)


def load_error(text):
    with pytest.raises(RecordError) as info:
        Game.load(text)
    return str(info.value)


# -- round trips ---------------------------------------------------------------------------


def test_save_load_finished_game(finished, saved):
    """A saved finished game loads to an equal state, log and record."""
    loaded = Game.load(saved)
    assert loaded.state == finished.state
    assert loaded.is_over
    assert loaded.names == finished.names
    assert loaded.log == finished.log
    assert loaded.setup == finished.setup
    assert loaded.record() == finished.record()
    assert loaded.save(compact=False) == saved
    assert loaded.scores() == finished.scores()


@pytest.mark.parametrize("decisions", [0, 1, 5, 40, 120])
def test_save_load_game_in_progress(decisions):
    """A game saved at any point loads to an equal state and can be played on."""
    game = play(Game.new("usa", players=4, seed=3), decisions=decisions, choice_seed=2)
    loaded = Game.load(game.save(compact=False))
    assert loaded.state == game.state
    play(loaded, decisions=10, choice_seed=9)
    play(game, decisions=10, choice_seed=9)
    assert loaded.state == game.state


def test_record_json_round_trip(finished):
    """A record survives its JSON form unchanged."""
    record = finished.record()
    assert GameRecord.from_json(record.to_json()) == record
    assert GameRecord.from_json(record.to_json().encode("utf-8")) == record


def test_seedless_replay_uses_recorded_outcomes(finished):
    """A record without its seed replays from the recorded shuffles to the same game
    (the generator state is the only difference: the replay goes on with a generator
    derived from the record, which its own record then carries)."""
    record = evolve(finished.record(), seed=None)
    replayed = Game.replay(record)
    assert replayed.state.rng >= 0
    assert replayed.state.rng == Game.replay(record).state.rng
    assert evolve(replayed.state, rng=finished.state.rng) == finished.state
    assert replayed.log == finished.log
    assert replayed.record().rng is not None
    again = Game.load(replayed.save(compact=False))
    assert again.state == replayed.state


def test_replay_names_and_options(saved):
    """Player names, options and the start player are part of the record."""
    game = Game.new(
        "usa", players=["Ann", "Bob"], seed=8, start_player=1, options={"opening_tickets": 4}
    )
    play(game, decisions=30, choice_seed=1)
    record = game.record()
    assert record.players == ("Ann", "Bob")
    assert record.options["opening_tickets"] == 4
    assert record.start_player == 1
    loaded = Game.load(game.save(compact=False))
    assert loaded.names == ("Ann", "Bob")
    assert loaded.ruleset.options == game.ruleset.options
    assert loaded.ruleset.options["opening_tickets"] == 4
    assert loaded.state == game.state


@pytest.mark.parametrize("start", [0, 1, 2])
def test_setup_8_start_player_recorded(start):
    """SETUP-8: the chosen start player is recorded and replayed."""
    game = Game.new("usa", players=3, seed=4, start_player=start)
    assert game.current_player == start
    play(game, decisions=12, choice_seed=start)
    assert game.record().start_player == start
    loaded = Game.load(game.save(compact=False))
    assert loaded.state.start_player == start
    assert loaded.state == game.state
    first_turn = Game.new("usa", players=3, seed=4, start_player=start)
    while first_turn.state.phase is Phase.OPENING_TICKETS:
        first_turn.apply(first_turn.legal_actions()[0])
    assert first_turn.current_player == start


def test_same_seed_same_record():
    """Determinism: the same seed and the same choices give the identical record."""
    a = play(Game.new("usa", players=4, seed=99), choice_seed=3)
    b = play(Game.new("usa", players=4, seed=99), choice_seed=3)
    assert a.save(compact=False) == b.save(compact=False)
    c = play(Game.new("usa", players=4, seed=100), choice_seed=3)
    assert c.save(compact=False) != a.save(compact=False)


def test_house_rule_record_needs_the_plugin(big_bonus):
    """A game played with a house rule replays only with the same plugin."""
    game = play(Game.new("usa", players=2, seed=5, plugins=[big_bonus]), decisions=20)
    text = game.save(compact=False)
    assert Game.load(text, plugins=[big_bonus]).state == game.state
    assert "hash" in load_error(text)


def test_illegal_action_leaves_the_game_unchanged():
    """An illegal action through ``Game.apply`` raises, citing its rule, and changes
    neither the state nor the log."""
    game = play(Game.new("usa", players=2, seed=1), decisions=10)
    state, log = game.state, list(game.log)
    with pytest.raises(IllegalActionError) as info:
        game.apply(Pass())
    assert info.value.rule == "PASS-1"
    assert game.state is state
    assert game.log == log
    assert Game.load(game.save(compact=False)).state == state


# -- corrupted records ---------------------------------------------------------------------


def test_wrong_map_hash(saved):
    """A record made with other map data is rejected."""
    text = mutated(saved, lambda raw: raw.update(map_hash="0" * 64))
    assert "map data" in load_error(text)


def test_wrong_rules_version(saved):
    """A record made with another rules version of the edition is rejected."""
    text = mutated(saved, lambda raw: raw.update(rules_version="0"))
    message = load_error(text)
    assert "rules version" in message
    assert "'0'" in message


def test_unknown_edition(saved):
    """A record of an edition that is not installed is rejected."""
    text = mutated(saved, lambda raw: raw.update(edition="atlantis"))
    assert "atlantis" in load_error(text)


def first_blind_draw(raw):
    for i, entry in enumerate(raw["log"]):
        for j, event in enumerate(entry["events"]):
            if event["tag"] == BlindDrawn.tag:
                return i, j
    raise AssertionError("no blind draw in the record")


@pytest.mark.parametrize("seeded", [True, False])
def test_edited_drawn_card(saved, seeded):
    """A drawn card changed in the log is detected."""

    def change(raw):
        if not seeded:
            raw["seed"] = None
        i, j = first_blind_draw(raw)
        event = raw["log"][i]["events"][j]
        event["card"] = "white" if event["card"] != "white" else "red"

    message = load_error(mutated(saved, change))
    i, _ = first_blind_draw(json.loads(saved))
    assert f"log[{i}]" in message
    assert "does not follow" in message


@pytest.mark.parametrize("seeded", [True, False])
def test_shuffle_order_not_a_permutation(saved, seeded):
    """A recorded shuffle that does not hold exactly the cards shuffled is rejected."""

    def change(raw):
        if not seeded:
            raw["seed"] = None
        order = raw["setup"][1]["order"]
        assert raw["setup"][1]["pile"] == "train"
        order[order.index(8)] = 0  # one locomotive too few, one red too many

    message = load_error(mutated(saved, change))
    assert "setup" in message
    if not seeded:
        assert "does not hold the cards" in message


def test_reordered_shuffle_without_seed_is_checked_against_the_deal(saved):
    """A different but valid setup order without a seed no longer matches the deal."""

    def change(raw):
        raw["seed"] = None
        order = raw["setup"][1]["order"]
        order.reverse()

    assert "does not follow" in load_error(mutated(saved, change))


@pytest.mark.parametrize("cut", [1, 10, 100, 1000])
def test_truncated_json(saved, cut):
    """A record cut short is not valid JSON."""
    assert "not valid JSON" in load_error(saved[:-cut])


def test_not_an_object_and_wrong_format(saved):
    """A record must be an object of the supported format."""
    assert "object" in load_error("[]")
    assert "format" in load_error(mutated(saved, lambda raw: raw.update(format=3)))
    assert "format" in load_error(mutated(saved, lambda raw: raw.pop("format")))


def test_malformed_action(saved):
    """An action with an unknown tag or a missing key is rejected, naming its place."""

    def bad_tag(raw):
        raw["log"][0]["action"]["tag"] = "teleport"

    assert "$.log[0].action" in load_error(mutated(saved, bad_tag))

    def missing(raw):
        raw["log"][0]["action"].pop("tickets")

    assert "$.log[0].action" in load_error(mutated(saved, missing))


def test_illegal_action_in_log(saved):
    """A log entry whose action is illegal there is rejected, naming the entry."""

    def change(raw):
        raw["log"][0]["action"]["tickets"] = []

    message = load_error(mutated(saved, change))
    assert "log[0]" in message
    assert "illegal" in message
    assert "SETUP-5" in message


def test_illegal_claim_in_log(saved):
    """A claim replaced by one the player cannot pay is rejected."""

    def change(raw):
        for entry in raw["log"]:
            if entry["action"]["tag"] == "claim_route":
                entry["action"]["cards"] = {"locomotive": 40}
                return
        raise AssertionError("no claim in the record")

    assert "illegal" in load_error(mutated(saved, change))


def test_extra_events(saved):
    """An entry with more events than the action causes is rejected."""

    def change(raw):
        raw["log"][3]["events"].append({"tag": "passed", "player": 0})

    message = load_error(mutated(saved, change))
    assert "log[3]" in message
    assert "events" in message


def test_missing_events(saved):
    """An entry with fewer events than the action causes is rejected."""

    def change(raw):
        entry = next(e for e in raw["log"] if e["events"])
        entry["events"].pop()

    assert "events" in load_error(mutated(saved, change))


def test_extra_setup_event(saved):
    """Extra events in the setup are rejected too."""

    def change(raw):
        raw["setup"].append({"tag": "card_revealed", "slot": 0, "card": "red"})

    assert "setup" in load_error(mutated(saved, change))


def test_entry_after_the_end(saved):
    """Nothing may follow the end of the game."""

    def change(raw):
        raw["log"].append({"action": {"tag": "pass"}, "events": []})

    assert "over" in load_error(mutated(saved, change))


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("seed", "17"),
        ("seed", 17.0),
        ("seed", True),
        ("start_player", "0"),
        ("players", "ABC"),
        ("rules_version", 1),
    ],
)
def test_wrong_json_types_in_record(saved, key, value):
    """A record field of the wrong JSON type is rejected when parsed, never converted."""
    text = mutated(saved, lambda raw: raw.update({key: value}))
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(text)
    assert key in str(info.value)


def test_unknown_option_in_record(saved):
    """A record naming an option the edition does not have cannot be replayed."""
    text = mutated(saved, lambda raw: raw["options"].update(speed=2))
    assert "speed" in load_error(text)


def test_bad_players(saved):
    """Duplicate names and an impossible start player are rejected."""
    dup = mutated(saved, lambda raw: raw.update(players=["A", "A", "B"]))
    assert "duplicate" in load_error(dup)
    start = mutated(saved, lambda raw: raw.update(start_player=7))
    assert "setup" in load_error(start)
    many = mutated(saved, lambda raw: raw.update(players=[str(i) for i in range(9)]))
    assert "setup" in load_error(many)


@pytest.mark.parametrize("seeded", [True, False])
def test_history_gives_the_state_before_each_action(seeded):
    """Game.history replays the log: the state before each action, then the current one."""
    game = Game.new("usa", players=3, seed=11)
    seen = [game.state]
    chooser = random.Random(3)
    for _ in range(60):
        legal = game.legal_actions()
        game.apply(legal[chooser.randrange(len(legal))])
        seen.append(game.state)
    record = game.record()
    if not seeded:
        record = evolve(record, seed=None, rng=game.state.rng)
    again = Game.replay(record)
    history = list(again.history())
    assert len(history) == len(again.log) + 1 == 61
    assert history[-1] == again.state
    compare = [evolve(s, rng=0) for s in history[:-1]]
    assert compare == [evolve(s, rng=0) for s in seen[:-1]]
