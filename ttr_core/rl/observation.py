"""Observation vectors: a player's view as a fixed-length vector of counts and flags.

[`ObservationEncoding`][] turns a [`PlayerView`][ttr_core.rules.views.PlayerView] into a
``float32`` vector whose length depends only on the ruleset and the player count. It
reads nothing but the view, so two positions that show a seat the same view give that
seat the same vector. Seats are relative to the viewer: "seat ``i``" below means the
``i``-th player after the viewer in turn order, the viewer being seat 0. Sections, in
order (those an edition has no use for are left out):

- ``phase``: 7 flags, the phase (by [`Phase`][ttr_core.model.state.Phase] value).
- ``to_act``: one flag per seat, the seat to decide (none once the game is over).
- ``hand``: 9 counts, the viewer's cards by kind (colours, then locomotives).
- ``display``: 9 counts, the face-up cards by kind.
- ``discard``: 9 counts, the discard pile by kind.
- ``piles``: 2 counts, the cards in the train deck and the tickets in the ticket deck.
- ``players``: per seat, its cards in hand, trains, kept tickets, score and (in
  editions with stations) stations left.
- ``final_round``: one flag per seat, the seat whose turn started the final round.
- ``owners``: per track in map order, one flag per seat, the owner.
- ``station_owners``: per city in map order, one flag per seat (editions with stations).
- ``tickets``: per ticket in map order, a flag for each ticket the viewer kept.
- ``offered``: per place in the largest offer, one flag per ticket in map order: the
  ticket in that place of ``view.offered`` (the places the ``keep_tickets`` codes use).
- ``tunnel`` (editions with tunnels): a flag per track for the track being claimed, then
  9 counts of the cards laid down, 9 counts of the cards turned over, and the number of
  extra cards demanded.
- ``choice`` (editions with groups of any cards): a flag per track for the track being
  claimed, the number of groups, the size of the payment and 9 counts of the cards
  chosen so far.

Left out of the view: the order of the face-up slots and of the turned-over cards, and
the turn counter; none of them changes what a seat may do.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ttr_core.model.cards import NUM_KINDS, counts_from_mapping
from ttr_core.model.errors import SetupError, quote
from ttr_core.model.state import Phase
from ttr_core.rl.encoding import Section
from ttr_core.rules.queries import track_cost
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

_PHASES = len(Phase)


class ObservationEncoding:
    """The observation vector of a ruleset at a player count (see the module for the layout)."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        """The layout for ``players`` players of ``ruleset``.

        :raises SetupError: ``players`` is not an ``int`` (a ``bool`` is not one) or is
            outside the edition's range.
        """
        lo, hi = ruleset.params.players
        if type(players) is not int or not lo <= players <= hi:
            raise SetupError(
                f"{ruleset.id} is played by {lo} to {hi} players, not {quote(players)}"
            )
        rs = ruleset
        params = rs.params
        self.ruleset = rs
        self.players = players
        tracks = rs.map.routes
        tickets = rs.map.tickets
        self._tracks = len(tracks)
        self._tickets = len(tickets)
        self._stations = params.stations > 0
        self._per_player = 5 if self._stations else 4
        self.sections: tuple[Section, ...] = ()
        """The sections of the layout, in order."""
        self._high: list[float] = []
        counts = counts_from_mapping(params.train_cards)
        cards = [float(n) for n in counts]
        deck = float(sum(counts))
        points = [params.route_points[track.length] for track in tracks]
        flags = [1.0]
        self._phase = self._add("phase", flags * _PHASES)
        self._to_act = self._add("to_act", flags * players)
        self._hand = self._add("hand", cards)
        self._display = self._add("display", [min(n, params.display.size) for n in cards])
        self._discard = self._add("discard", cards)
        self._piles = self._add("piles", [deck, float(self._tickets)])
        one = [
            deck,
            float(params.trains),
            float(self._tickets),
            float(sum(max(0, p) for p in points)),
        ]
        if self._stations:
            one.append(float(params.stations))
        self._players = self._add("players", one * players)
        self._final = self._add("final_round", flags * players)
        self._owners = self._add("owners", flags * (self._tracks * players))
        stations = len(rs.map.cities) * players if self._stations else 0
        self._station_owners = self._add("station_owners", flags * stations)
        self._kept = self._add("tickets", flags * self._tickets)
        offer = max(params.opening_tickets.deal, params.ticket_draw.deal)
        self._offered = self._add("offered", flags * (offer * self._tickets))
        self._tunnel = -1
        if any(track.tunnel for track in tracks):
            reveal = float(params.tunnel_reveal)
            self._tunnel = self._add(
                "tunnel",
                flags * self._tracks + cards + [min(n, reveal) for n in cards] + [reveal],
            )
        self._choice = -1
        if any(track_cost(rs, r).group_size for r in range(self._tracks)):
            longest = float(max(track.length for track in tracks))
            self._choice = self._add("choice", flags * self._tracks + [longest, deck] + cards)
        self.size: int = len(self._high)
        """The length of the vector."""
        low = np.zeros(self.size, dtype=np.float32)
        # A score falls below zero only where a house rule gives negative route points.
        scores = slice(self._players + 3, self._final, self._per_player)
        low[scores] = sum(min(0, p) for p in points)
        high = np.array([max(h, 1.0) for h in self._high], dtype=np.float32)
        self.space: spaces.Box = spaces.Box(low=low, high=high, dtype=np.float32)
        """The observation space: every entry from its lowest to its highest value."""
        self._route_index = {track.id: r for r, track in enumerate(tracks)}
        self._ticket_index = {ticket.id: t for t, ticket in enumerate(tickets)}

    def _add(self, name: str, highs: list[float]) -> int:
        start = len(self._high)
        self._high.extend(highs)
        self.sections = (*self.sections, Section(name, start, len(highs)))
        return start

    def section(self, name: str) -> Section:
        """The section called ``name`` (``"hand"``, ...).

        :raises KeyError: there is no section of that name.
        """
        for s in self.sections:
            if s.name == name:
                return s
        raise KeyError(name)

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """The observation vector of ``view`` (a view of this ruleset at this player count).

        :raises SetupError: the view is of another edition or player count.
        """
        n = self.players
        if view.edition != self.ruleset.id or len(view.players) != n:
            raise SetupError(
                f"this observation encoding is for {n}-player {self.ruleset.id} games, "
                f"not a {len(view.players)}-player view of edition {quote(view.edition)}"
            )
        seat = view.seat
        out = np.zeros(self.size, dtype=np.float32)
        out[self._phase + int(view.phase)] = 1
        if view.phase is not Phase.GAME_OVER:
            out[self._to_act + (view.current - seat) % n] = 1
        out[self._hand : self._hand + NUM_KINDS] = view.hand
        for card in view.display:
            if card >= 0:
                out[self._display + card] += 1
        out[self._discard : self._discard + NUM_KINDS] = view.discard
        out[self._piles] = view.deck_size
        out[self._piles + 1] = view.ticket_deck_size
        per = self._per_player
        for p in view.players:
            at = self._players + (p.seat - seat) % n * per
            out[at] = p.hand_size
            out[at + 1] = p.trains
            out[at + 2] = p.tickets
            out[at + 3] = p.score
            if self._stations:
                out[at + 4] = p.stations
        if view.final_trigger >= 0:
            out[self._final + (view.final_trigger - seat) % n] = 1
        self._owned(out, self._owners, view.owners, seat)
        if self._stations:
            self._owned(out, self._station_owners, view.station_owners, seat)
        tickets = self._ticket_index
        for t in view.tickets:
            out[self._kept + tickets[t]] = 1
        for i, t in enumerate(view.offered):
            out[self._offered + i * self._tickets + tickets[t]] = 1
        tunnel = view.tunnel
        if tunnel is not None and self._tunnel >= 0:
            at = self._tunnel
            out[at + self._route_index[tunnel.route]] = 1
            at += self._tracks
            out[at : at + NUM_KINDS] = tunnel.paid
            for card in tunnel.revealed:
                out[at + NUM_KINDS + card] += 1
            out[at + 2 * NUM_KINDS] = tunnel.extra
        choice = view.choice
        if choice is not None and self._choice >= 0:
            at = self._choice
            out[at + self._route_index[choice.route]] = 1
            at += self._tracks
            out[at] = choice.groups
            out[at + 1] = choice.size
            out[at + 2 : at + 2 + NUM_KINDS] = choice.chosen
        return out

    def _owned(
        self, out: npt.NDArray[np.float32], start: int, owners: tuple[int, ...], seat: int
    ) -> None:
        """Set one flag per owned place: ``start + place * players + relative seat``."""
        n = self.players
        held = np.asarray(owners, dtype=np.int64)
        places = np.flatnonzero(held >= 0)
        out[start + places * n + (held[places] - seat) % n] = 1

    def __repr__(self) -> str:
        return (
            f"<ObservationEncoding {self.ruleset.id}, {self.players} players: {self.size} entries>"
        )
