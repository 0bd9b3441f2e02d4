"""``ttr render SOURCE --out FILE.svg``: draw a map as SVG.

``SOURCE`` is an existing file or an edition. A file (or ``-``, standard input) holds a game record
(its JSON has ``format``), drawn at its end or after ``--at N`` actions, or an end-of-game position
as ``ttr score`` reads it (``edition`` and ``players``); both show the claimed tracks and the
stations in the players' colours, and the end of a game and a position also show the score sheet.
Anything else is an edition id or alias, drawn bare. The drawing is
[`ttr_core.formats.render.draw_map`][ttr_core.formats.render.draw_map]'s.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any

from ttr_core.cli._common import (
    CommandError,
    UsageError,
    add_option_argument,
    options_dict,
    read_input,
    sentence,
)
from ttr_core.cli.replay import add_at_argument, check_at, load_record, state_at
from ttr_core.formats.position import load_position
from ttr_core.formats.render import draw_map
from ttr_core.model.errors import PositionError, UnknownEditionError
from ttr_core.model.strict import JsonTextError, parse_json
from ttr_core.rules.scoring import score_position
from ttr_core.ruleset.ruleset import Ruleset

HELP = "draw a map as SVG: an edition's, or a saved game's or a position's with its claims"


def register(sub: Any) -> None:
    """Add the ``render`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "render",
        help=HELP,
        description=sentence(HELP) + ". SOURCE is a game record or an end-of-game position "
        "(a JSON file, or - for standard input), whose claimed tracks and stations are "
        "drawn in the players' colours, or else an edition id or alias.",
    )
    parser.add_argument(
        "source",
        metavar="SOURCE",
        help="an edition id or alias, a saved game record, or a position as 'ttr score' reads",
    )
    parser.add_argument(
        "--out",
        required=True,
        metavar="FILE",
        help="the SVG file to write (replaced if it exists), or - for standard output",
    )
    add_at_argument(
        parser, "for a record: draw the position after N actions (by default, the last one)"
    )
    add_option_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Draw the map of the source and write it to ``--out``."""
    source: str = args.source
    if source == "-" or (os.path.exists(source) and not os.path.isdir(source)):
        svg = _draw_file(args, *read_input(source))
    else:
        try:
            rs = Ruleset.build(source, options_dict(args.options))
        except UnknownEditionError as exc:
            # Not an edition: say what is wrong with it as a file when it looks like one.
            if os.path.isdir(source):
                raise CommandError(f"cannot read {source}: Is a directory") from None
            if os.sep in source or "/" in source or source.lower().endswith(".json"):
                raise CommandError(f"cannot read {source}: No such file or directory") from None
            raise CommandError(str(exc)) from None
        if args.at is not None:
            raise UsageError(
                f"argument --at: counts the actions of a game record, and {source} is an edition"
            )
        svg = draw_map(rs)
    _write(args.out, svg)
    return 0


def _draw_file(args: argparse.Namespace, name: str, data: bytes) -> str:
    """Draw a record (at ``--at``) or a position read from ``name``."""
    try:
        raw = parse_json(data)
    except JsonTextError as exc:
        raise CommandError(f"{name}: {exc}") from None
    if isinstance(raw, dict) and "format" in raw:
        if args.options:
            raise UsageError("argument --option: a game record carries its own options")
        game = load_record(name, data)
        actions = len(game.log)
        at = actions if args.at is None else args.at
        check_at(game, at)
        state = game.state if at == actions else state_at(game, at)
        rs = game.ruleset
        when = "end of the game" if state.is_over else f"after {at} of {actions} actions"
        title = f"{rs.map.name}: {', '.join(game.names)}, {when}"
        scores = game.scores() if at == actions and state.is_over else None
        return draw_map(rs, state=state, names=game.names, title=title, scores=scores)
    if isinstance(raw, dict) and "edition" in raw and "players" in raw:
        if args.at is not None:
            raise UsageError(
                f"argument --at: counts the actions of a game record, and {name} is a position"
            )
        try:
            rs, position = load_position(raw, options=options_dict(args.options))
        except PositionError as exc:
            raise CommandError(f"{name}: {exc}") from None
        title = f"{rs.map.name}: {', '.join(p.name for p in position.players)}"
        return draw_map(rs, state=position, title=title, scores=score_position(rs, position))
    raise CommandError(
        f"{name}: neither a game record (it has no 'format') nor a position (it needs "
        "'edition' and 'players')"
    )


def _write(path: str, svg: str) -> None:
    """Write the drawing to ``path`` whole or not at all (via a rename), or to stdout."""
    if path == "-":
        sys.stdout.write(svg)
        return
    data = svg.encode("utf-8")
    folder = os.path.dirname(path) or "."
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        try:
            with open(temporary, "wb") as f:
                f.write(data)
            os.replace(temporary, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
    except OSError as exc:
        raise CommandError(f"--out: cannot write {path}: {exc.strerror or exc}") from None
