"""The Europe edition: map data with tunnels, ferries and train stations.

Registered through the ``ttr.editions`` entry point like any third-party edition. The
edition declares everything in ``europe.json``; tunnels, ferries, stations, the long
opening ticket and the European Express are the core's shared mechanics, switched on by
the map data and its parameters.
"""

from __future__ import annotations

from ttr_core.plugin import packaged_edition

ttr_edition_info, ttr_map_data = packaged_edition(
    __name__,
    "europe.json",
    name="Ticket to Ride Europe",
    aliases=("europa", "eu", "zug-um-zug-europa"),
)
