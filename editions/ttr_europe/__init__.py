"""The Europe edition: map data with tunnels, ferries and train stations.

Registered through the ``ttr.editions`` entry point like any third-party edition. The
edition declares everything in ``europe.json``; tunnels, ferries, stations, the long
opening ticket and the European Express are the core's shared mechanics, switched on by
the map data and its parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from ttr_core.plugin import EditionInfo, MapData, hookimpl, load_packaged_map


@hookimpl
def ttr_edition_info() -> EditionInfo:
    return EditionInfo(
        id="europe",
        name="Ticket to Ride Europe",
        aliases=("europa", "eu", "zug-um-zug-europa"),
        rules_version="1",
    )


@cache
def _map() -> MapData:
    return load_packaged_map(__name__, "europe.json")


@hookimpl
def ttr_map_data(options: Mapping[str, Any]) -> MapData:
    return _map()
