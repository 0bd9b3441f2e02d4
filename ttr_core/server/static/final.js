// The final score sheet, from the state message's ``final`` (sent once the game is over).

import { el } from "./common.js";

function ticketList(tickets, completed) {
  const chosen = tickets.filter((t) => t.completed === completed);
  if (!chosen.length) return "—";
  return el("ul", { class: "sheet-tickets" }, chosen.map((t) => {
    const to = t.b ?? (t.to_any || []).join("/");
    return el("li", {}, `${t.a}–${to} (${t.points > 0 ? "+" : ""}${t.points})`);
  }));
}

function bonusText(bonuses) {
  const parts = Object.entries(bonuses).filter(([, p]) => p).map(([k, p]) => `${k} +${p}`);
  return parts.length ? parts.join(", ") : "—";
}

/** Show the score sheet of a finished game (``final`` null hides it). */
export function renderFinal(board, final) {
  const box = document.getElementById("final");
  if (!final) { box.hidden = true; return; }
  const winners = new Set(final.winner_seats);
  const stations = final.players.some((p) => p.stations !== undefined);
  const head = ["Player", "Total", "Routes", "Tickets", "Completed", "Failed", "Longest path",
    "Bonuses", ...(stations ? ["Stations used"] : [])];
  const rows = final.players.map((p, seat) => el("tr", {
    "data-testid": `final-${seat}`, class: winners.has(seat) ? "winner" : "" },
  el("td", {}, `${winners.has(seat) ? "★ " : ""}${p.name}`),
  el("td", { "data-testid": `final-total-${seat}`, class: "total" }, p.total),
  el("td", {}, p.route_points), el("td", {}, p.ticket_points),
  el("td", {}, ticketList(p.tickets, true)), el("td", {}, ticketList(p.tickets, false)),
  el("td", {}, p.longest_path), el("td", {}, bonusText(p.bonuses)),
  ...(stations ? [el("td", {}, String((p.stations || []).length))] : [])));
  box.replaceChildren(
    el("h3", {}, `Final scores — ${final.winners.join(" and ")} won`),
    el("table", { class: "sheet" }, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)),
  );
  box.hidden = false;
}
