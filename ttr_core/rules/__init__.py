"""The mechanics of play, one module per mechanic.

Each module holds both sides of its mechanic: applying it in place to the
:class:`~ttr_core.rules.table.Table` a :class:`~ttr_core.play.simulator.Simulator` plays on,
and listing (counting and indexing) the legal actions it offers. Where a rule decides
what is legal, the listing is its one definition and applying an action first checks
that it is listed; the reasons given for a refusal only explain it. A module's
``CHECKS`` maps each of its action types to that check (see
:data:`~ttr_core.rules.table.Check`).

- :mod:`~ttr_core.rules.piles`: the train deck, the discard pile and the face-up display
  (draws, reshuffles, refills and flushes);
- :mod:`~ttr_core.rules.turn`: whose decision it is, the end of a turn, the final round,
  passing;
- :mod:`~ttr_core.rules.drawing`: drawing train cards, face up or blind;
- :mod:`~ttr_core.rules.tickets`: dealing, drawing and keeping destination tickets;
- :mod:`~ttr_core.rules.claims`: who may claim a track (double routes), the claims
  listed and what a claim does;
- :mod:`~ttr_core.rules.tunnels`: the reveal of a tunnel claim, its extra payment or
  withdrawal;
- :mod:`~ttr_core.rules.card_groups`: payments with groups of any cards, chosen card by
  card;
- :mod:`~ttr_core.rules.stations`: building stations.

Below the mechanics, :mod:`~ttr_core.rules.payments` defines what pays for a track and
:mod:`~ttr_core.rules.payment_counts` keeps, per seat, how many payments its hand
affords. Outside the rules, :mod:`~ttr_core.rules.queries` answers the questions bots and
tools ask of a position, each from the rule's own module.
"""
