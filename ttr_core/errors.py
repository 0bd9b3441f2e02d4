"""The exceptions the library raises. Every one derives from :class:`TtrError`."""

from __future__ import annotations


class TtrError(Exception):
    """Base class of every error the library raises on purpose."""


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


class RecordError(TtrError, ValueError):
    """A saved game record that is malformed or does not replay to the recorded events."""


class PositionError(TtrError, ValueError):
    """An end-of-game position (the ``ttr score`` input) that is malformed or impossible."""


class BotError(TtrError, LookupError):
    """A bot name that cannot be resolved to a bot class."""
