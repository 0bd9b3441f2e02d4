"""``ttr score FILE``: score an end-of-game position (the format of :mod:`ttr_core.position`)."""

from __future__ import annotations

import argparse
from typing import Any

from ttr_core.cli._common import (
    CommandError,
    add_option_argument,
    options_dict,
    print_json,
    read_input,
    sentence,
)
from ttr_core.errors import PositionError
from ttr_core.position import read_position
from ttr_core.scoring import score_position, scoresheet_json

HELP = "score an end-of-game position given as JSON"


def register(sub: Any) -> None:
    """Add the ``score`` command to the sub-command parsers."""
    parser = sub.add_parser(
        "score",
        help=HELP,
        description=sentence(HELP) + " and print the score sheet as JSON. The input format "
        "is described in the ttr_core.position module.",
    )
    parser.add_argument("file", metavar="FILE", help="the position JSON file, or - for stdin")
    add_option_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the score sheet of the position."""
    name, data = read_input(args.file)
    try:
        rs, position = read_position(data, options=options_dict(args.options))
    except PositionError as exc:
        raise CommandError(f"{name}: {exc}") from None
    print_json(scoresheet_json(rs, score_position(rs, position)))
    return 0
