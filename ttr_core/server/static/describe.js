// Words for actions and events, from the board's names of tracks, tickets and cities.

import { cardsText, routeText, ticketText } from "./common.js";

/** An action of the legal list in words. */
export function describeAction(board, a) {
  switch (a.tag) {
    case "take_face_up": return `Take the face-up ${a.card}`;
    case "draw_blind": return "Draw from the deck";
    case "draw_tickets": return "Draw tickets";
    case "keep_tickets":
      return `Keep ${a.tickets.map((t) => ticketText(board, t)).join(", ") || "no ticket"}`;
    case "claim_route": return `Claim ${routeText(board, a.route)} with ${cardsText(a.cards)}`;
    case "claim_with_groups":
      return `Claim ${routeText(board, a.route)} with ${a.groups} group(s) of any cards`;
    case "choose_card": return `Add a ${a.card} to the payment`;
    case "pay_tunnel": return `Pay the tunnel: ${cardsText(a.cards)}`;
    case "withdraw_tunnel": return "Withdraw from the tunnel";
    case "build_station": return `Build a station in ${a.city} with ${cardsText(a.cards)}`;
    case "pass": return "Pass";
    default: return `${a.tag} ${JSON.stringify(a)}`;
  }
}

function known(card) {
  return typeof card === "string" ? ` (${card})` : "";
}

/** A public event in words, or null for bookkeeping not worth a line. */
export function describeEvent(board, e) {
  const who = e.player === undefined ? "" : board.names[e.player] ?? `seat ${e.player}`;
  switch (e.tag) {
    case "face_up_taken": return `${who} takes the face-up ${e.card}`;
    case "blind_drawn": return `${who} draws from the deck${known(e.card)}`;
    case "tickets_dealt": return `${who} draws ${e.tickets.length} tickets`;
    case "tickets_kept":
      return `${who} keeps ${e.kept.length} ticket(s), returns ${e.returned.length}`;
    case "route_claimed":
      return `${who} claims ${routeText(board, e.route)} with ${cardsText(e.cards)}` +
        ` (+${e.points})`;
    case "group_claim_started":
      return `${who} starts paying ${routeText(board, e.route)} with ${e.groups} group(s)`;
    case "card_chosen": return `${who} adds a ${e.card} to the payment`;
    case "tunnel_revealed":
      return `${who} turns up ${e.cards.join(", ") || "nothing"} for the tunnel ` +
        `${routeText(board, e.route)}: ${e.extra} more card(s)`;
    case "tunnel_withdrawn": return `${who} withdraws from ${routeText(board, e.route)}`;
    case "station_built": return `${who} builds a station in ${e.city} (${cardsText(e.cards)})`;
    case "passed": return `${who} passes`;
    case "final_round_started": return `${who} has ${e.trains} trains left: the last round starts`;
    case "game_ended": return `The game is over (${e.reason})`;
    case "display_flushed": return "Three locomotives face up: the display is replaced";
    case "shuffled": return "A pile is shuffled";
    default: return null;
  }
}
