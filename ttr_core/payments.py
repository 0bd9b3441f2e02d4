"""Which cards may pay for a track or a station (kept here for code that imports them).

The rules live with their mechanics: :func:`~ttr_core.rules.claims.payment_error` in
:mod:`ttr_core.rules.claims`, :func:`~ttr_core.rules.stations.station_payment_error` and
:func:`~ttr_core.rules.stations.station_payments` in :mod:`ttr_core.rules.stations`.
"""

from __future__ import annotations

from ttr_core.rules.claims import is_counts, payment_error
from ttr_core.rules.stations import station_payment_error, station_payments

__all__ = ["is_counts", "payment_error", "station_payment_error", "station_payments"]
