"""``filled`` gives a frozen class its field dictionary only where that makes the object
``__init__`` makes; elsewhere it calls ``__init__``."""

from __future__ import annotations

import attrs
import pytest

from ttr_core.model.filled import fillable, filled
from ttr_core.model.state import GameState, PlayerState
from ttr_core.rules.views import PlayerView, PublicPlayer


@pytest.mark.parametrize("kind", [GameState, PlayerState, PlayerView, PublicPlayer])
def test_the_states_and_views_the_simulator_builds_are_fillable(kind: type) -> None:
    assert fillable(kind)


@attrs.frozen(slots=False)
class Plain:
    a: int
    b: tuple[int, ...] = ()


@attrs.frozen(slots=False)
class Checked:
    a: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen(slots=False)
class Converted:
    a: int = attrs.field(converter=int)


@attrs.frozen
class Slotted:
    a: int


@attrs.frozen(slots=False)
class AfterInit:
    a: int

    def __attrs_post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a < 0")


@attrs.frozen(slots=False, init=False)
class OwnInit:
    a: int

    def __init__(self, a: int) -> None:
        object.__setattr__(self, "a", a * 2)


@attrs.frozen(slots=False)
class Uninit:
    a: int
    b: int = attrs.field(init=False, default=5)


class NotAttrs:
    def __init__(self, a: int) -> None:
        self.a = a


def test_a_plain_class_is_filled_and_is_the_same_object() -> None:
    made = filled(Plain, {"a": 1, "b": (2,)})
    assert fillable(Plain)
    assert made == Plain(a=1, b=(2,)) and hash(made) == hash(Plain(1, (2,)))
    assert repr(made) == repr(Plain(1, (2,)))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.a = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    "kind", [Checked, Converted, Slotted, AfterInit, OwnInit, Uninit, NotAttrs]
)
def test_other_classes_are_built_by_init(kind: type) -> None:
    assert not fillable(kind)
    assert filled(kind, {"a": 3}) == kind(a=3) or kind is NotAttrs


def test_filling_a_class_that_checks_still_checks() -> None:
    with pytest.raises(TypeError):
        filled(Checked, {"a": "3"})
    with pytest.raises(ValueError, match="a < 0"):
        filled(AfterInit, {"a": -1})
    assert filled(Converted, {"a": "7"}).a == 7
    assert filled(OwnInit, {"a": 2}).a == 4
    assert filled(NotAttrs, {"a": 2}).a == 2
