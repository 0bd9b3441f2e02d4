"""Fictional Coast passes the ttr conformance kit, and its own rule is checked by hand."""

from __future__ import annotations

from ttr_core import Ruleset
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position, score_position
from ttr_core.testing import EditionContract


class TestFictionalContract(EditionContract):
    """The whole conformance suite for the edition, at every player count and option."""

    edition = "fictional"


def test_lighthouse_bonus_needs_both_lighthouses() -> None:
    """A player touching Brinecliff and Greyhaven scores the bonus; the option sets it."""
    for bonus in (0, 4):
        rs = Ruleset.build("fictional", {"lighthouse_bonus": bonus})
        both = (
            index_of(rs).route_index[1],
            index_of(rs).route_index[14],
        )  # Ambergate-Brinecliff, Greyhaven-...
        one = (index_of(rs).route_index[2],)  # Ambergate-Cobbleford
        position = Position(
            players=(
                PlayerPosition(name="Ann", routes=both, tickets=()),
                PlayerPosition(name="Bob", routes=one, tickets=()),
            )
        )
        sheet = score_position(rs, position)
        assert [p.bonuses["lighthouses"] for p in sheet.players] == [bonus, 0]
