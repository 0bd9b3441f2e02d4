"""The mechanics of play, one module per mechanic.

Each module holds both sides of its mechanic: applying it to a
:class:`~ttr_core.play.simulator.Simulator` in place, and listing (counting and indexing)
the legal actions it offers. Where a rule decides what is legal, the listing is its one
definition and applying an action first checks that it is listed; the reasons given
for a refusal only explain it.

- :mod:`~ttr_core.rules.piles`: the train deck, the discard pile and the face-up display
  (draws, reshuffles, refills and flushes);
- :mod:`~ttr_core.rules.turn`: whose decision it is, the end of a turn, the final round,
  passing;
- :mod:`~ttr_core.rules.drawing`: drawing train cards, face up or blind;
- :mod:`~ttr_core.rules.tickets`: dealing, drawing and keeping destination tickets;
- :mod:`~ttr_core.rules.claims`: claiming a track, its payments and double routes;
- :mod:`~ttr_core.rules.tunnels`: the reveal of a tunnel claim, its extra payment or
  withdrawal;
- :mod:`~ttr_core.rules.card_groups`: payments with groups of any cards, chosen card by
  card;
- :mod:`~ttr_core.rules.stations`: building stations.
"""
