"""The mechanics of play, one module per mechanic.

Each module holds both sides of its mechanic: applying it in place to the
[`Table`][ttr_core.rules.table.Table] a [`Simulator`][ttr_core.play.simulator.Simulator] plays on,
and listing (counting and indexing) the legal actions it offers. Where a rule decides
what is legal, the listing is its one definition and applying an action first checks
that it is listed; the reasons given for a refusal only explain it. A module's
``CHECKS`` maps each of its action types to that check (see
[`Check`][ttr_core.rules.table.Check]).

- [`piles`][]: the train deck, the discard pile and the face-up display (draws, reshuffles,
  refills and flushes);
- [`turn`][]: whose decision it is, the end of a turn, the final round, passing;
- [`drawing`][]: drawing train cards, face up or blind;
- [`tickets`][]: dealing, drawing and keeping destination tickets;
- [`claims`][]: who may claim a track, the claims listed and what a claim does;
- `double_routes`: who may claim a track whose parallel is claimed (DOUBLE-1,
  DOUBLE-2), from the track owners;
- [`tunnels`][]: the reveal of a tunnel claim, its extra payment or withdrawal;
- [`card_groups`][]: payments with groups of any cards, chosen card by card;
- [`stations`][]: building stations.

Below the mechanics, [`payments`][] defines what pays for a track and [`payment_counts`][]
keeps, per seat, how many payments its hand affords. Outside the rules, [`queries`][]
answers the questions bots and tools ask of a position, each from the rule's own module.
"""
