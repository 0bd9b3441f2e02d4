"""The Switzerland edition (Map Collection vol. 2): map data only.

Registered through the ``ttr.editions`` entry point like any third-party edition. The
map, its border arrows and country tickets, and the parameters (2 or 3 players with 40
trains, 5 opening tickets, returned tickets removed from the game, locomotives only on
tunnels, face-up locomotives as ordinary draws, the display flush, the longest path
bonus) are declared in ``switzerland.json`` and played by the core's shared mechanics,
country tickets included (rules CH-1 to CH-14, COUNTRY-1 to COUNTRY-9).
"""

from __future__ import annotations

from ttr_core.plugin import packaged_edition

ttr_edition_info, ttr_map_data = packaged_edition(
    __name__,
    "switzerland.json",
    name="Ticket to Ride Switzerland",
    aliases=("schweiz", "suisse", "svizzera", "zug-um-zug-schweiz"),
)
