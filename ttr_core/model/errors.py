"""The exceptions the library raises. Every one derives from [`TtrError`][].

Every message is one line of at most [`MAX_MESSAGE`][] characters: the sources quote
values with [`quote`][], and [`TtrError`][] shortens whatever is longer still.
"""

from __future__ import annotations

import reprlib

MAX_MESSAGE = 300
"""The longest error message; a longer one keeps its start and end around ``" ... "``."""

_ELLIPSIS = " ... "

LONG_INT_BITS = 128
"""An integer of more bits than this (about 39 digits) is quoted by its size alone."""


class _Repr(reprlib.Repr):
    """``reprlib`` that never turns a huge integer into text (Python refuses past 4,300 digits)."""

    def repr1(self, x: object, level: int) -> str:
        if isinstance(x, int) and not isinstance(x, bool) and abs(x).bit_length() > LONG_INT_BITS:
            return _int_size(x)
        return super().repr1(x, level)


def _int_size(value: int) -> str:
    """``<int of N digits>`` (``-`` before ``N`` for a negative one), without converting it."""
    magnitude = abs(value)
    digits = int(magnitude.bit_length() * 0.30102999566398120)  # log10(2): one too few at most
    if digits < 1_000_000:
        exact = digits + (1 if magnitude >= 10**digits else 0)
        size = f"{exact} digits"
    else:
        size = f"about {digits + 1} digits"
    return f"<{'negative ' if value < 0 else ''}int of {size}>"


_REPR = _Repr()
_REPR.maxlevel = 2
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlong = 30
_REPR.maxlist = _REPR.maxtuple = 6
_REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 4


def quote(value: object) -> str:
    """A short ``repr`` of a value from the input, for messages: long text and lists are cut.

    A cut string or list says how long it was, e.g. ``'xxxx...xxxx' (54000 characters)``,
    and an integer of more than about 39 digits is given by its size (``<int of 5001
    digits>``), so that quoting never fails, whatever the value.
    """
    text = _REPR.repr(value)
    if isinstance(value, str) and len(value) > _REPR.maxstring:
        return f"{text} ({len(value)} characters)"
    limit = _REPR.maxdict if isinstance(value, dict) else _REPR.maxlist
    if isinstance(value, list | tuple | dict) and len(value) > limit:
        return f"{text} ({len(value)} items)"
    return text


def shorten(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line, cut in the middle (``" ... "``) if it is longer than ``limit``."""
    if "\n" in text or "\r" in text:
        text = " ".join(text.splitlines())
    if len(text) <= limit:
        return text
    keep = limit - len(_ELLIPSIS)
    head = keep - keep // 2
    return text[:head] + _ELLIPSIS + text[len(text) - keep // 2 :]


class TtrError(Exception):
    """Base class of every error the library raises on purpose.

    Its message is one line of at most [`MAX_MESSAGE`][] characters (see [`shorten`][]).
    """

    def __str__(self) -> str:
        return shorten(super().__str__())


class IllegalActionError(TtrError, ValueError):
    """An action that the rules do not allow in this state; the state is unchanged.

    ``rule`` is the id of the rule that forbids it (see the rules reference).
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} (rule {rule})")
        self.rule = rule


class SetupError(TtrError, ValueError):
    """A game that cannot be set up: player count, start player, names or seat out of range."""


class MapDataError(TtrError, ValueError):
    """Map data that does not follow the map data format; the message names the path."""


class OptionError(TtrError, ValueError):
    """An unknown edition option or an option value the edition does not offer."""


class UnknownEditionError(TtrError, LookupError):
    """No installed edition has the requested id or alias."""


class UnknownIdError(TtrError, LookupError):
    """A track, ticket or city id that the ruleset's map does not have."""


class RecordError(TtrError, ValueError):
    """A saved game record that is malformed or does not replay to the recorded events."""


class PositionError(TtrError, ValueError):
    """An end-of-game position (the ``ttr score`` input) that is malformed or impossible."""


class JsonFormatError(TtrError, ValueError):
    """The JSON of an action, event, state or view that does not follow its format.

    Raised by the readers of [`ttr_core.formats.serialize`][ttr_core.formats.serialize]; the message
    names the offending key.
    """


class BotError(TtrError, LookupError):
    """A bot name that cannot be resolved to a bot class."""


class ViewError(TtrError, ValueError):
    """A player view that does not belong to the ruleset: no position of its game shows it."""


class ActionCodeError(TtrError, ValueError):
    """An action code out of range or naming no legal action in the view it is decoded
    in, or an action that has no code (see [`ttr_core.rl`][ttr_core.rl])."""


class RenderError(TtrError, ValueError):
    """A map that cannot be drawn (its cities have no coordinates), or what is drawn on it
    does not fit the map: a state of another map, a heatmap value outside 0 to 1."""


class MissingExtraError(TtrError, ImportError):
    """An optional feature whose extra is not installed; the message gives the ``pip``
    command that adds it ([`install_command`][ttr_core.model.extras.install_command])."""


class LongestPathError(TtrError, ValueError):
    """A network whose longest path needs more search than ``graph.MAX_TRAIL_WORK`` allows."""
