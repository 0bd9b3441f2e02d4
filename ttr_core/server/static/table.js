// The table of one game: a WebSocket to the server, and the page drawn from each state
// message. Every control that acts sends the index of an action of the server's
// ``legal`` list: the page knows no rule of its own.

import { api, cardChip, el, showMessage, ticketText, routeText } from "./common.js";
import { describeAction, describeEvent } from "./describe.js";
import { markSelected, markTargets, onMapClick, resetMap, showMap } from "./map.js";
import { renderFinal } from "./final.js";

const OWN_CONTROL = new Set([
  "take_face_up", "draw_blind", "draw_tickets", "keep_tickets", "claim_route",
  "claim_with_groups", "build_station",
]);
const MAX_LOG = 300;

let current = null; // {gameId, token, board, socket, state, selected, seq, queue}

/** Open the table of ``gameId``: play the seat of ``token``, or watch without one. */
export async function openTable(gameId, token) {
  closeTable();
  const table = document.getElementById("table");
  table.hidden = false;
  table.dataset.seq = "0";
  document.getElementById("log").replaceChildren();
  document.getElementById("final").hidden = true;
  const me = { gameId, token, board: null, socket: null, state: null, selected: null,
    seq: 0, queue: Promise.resolve() };
  current = me;
  try {
    me.board = indexed(await api(`/api/games/${gameId}/board`));
  } catch (err) {
    showMessage(`This game cannot be shown: ${err.message}`, true);
    return;
  }
  if (current !== me) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}${query}`);
  me.socket = socket;
  socket.addEventListener("message", (msg) => received(me, JSON.parse(msg.data)));
  socket.addEventListener("close", () => {
    if (current === me && !(me.state && me.state.view.phase === "game_over")) {
      showMessage("The connection to the server was closed: reload the page to go on.", true);
    }
  });
}

/** Close the table (its socket too). */
export function closeTable() {
  if (current && current.socket) current.socket.close();
  current = null;
  resetMap();
  document.getElementById("table").hidden = true;
}

function indexed(board) {
  board.routeById = new Map(board.routes.map((r) => [r.id, r]));
  board.ticketById = new Map(board.tickets.map((t) => [t.id, t]));
  return board;
}

function received(me, message) {
  if (current !== me) return;
  if (message.type === "error") {
    showMessage(message.message, true);
    if (me.state) me.queue = me.queue.then(() => render(me)); // controls on again
    return;
  }
  if (message.type !== "state") return;
  showMessage("");
  const first = me.state === null;
  me.state = message;
  me.selected = null;
  if (first) me.queue = me.queue.then(() => loadHistory(me, message.actions));
  me.queue = me.queue.then(() => addEvents(me.board, message.events));
  me.queue = me.queue.then(() => render(me)).catch((err) => showMessage(err.message, true));
}

function send(me, index) {
  const table = document.getElementById("table");
  table.dataset.busy = "true";
  for (const b of table.querySelectorAll("[data-action-index]")) b.disabled = true;
  me.socket.send(JSON.stringify({ type: "action", index }));
}

function actionButton(me, entry, label, attrs = {}) {
  return el("button", {
    type: "button", "data-action-index": entry.index, dataset: { tag: entry.action.tag },
    onclick: () => send(me, entry.index), ...attrs,
  }, label ?? describeAction(me.board, entry.action));
}

async function render(me) {
  if (current !== me || !me.state) return;
  const { view } = me.state;
  const legal = me.state.legal.map((action, index) => ({ action, index }));
  const claimsKey = JSON.stringify([view.owners, view.station_owners]);
  await showMap(me.gameId, claimsKey);
  if (current !== me) return;
  const routes = new Set(legal.filter((e) => e.action.route !== undefined &&
    e.action.tag.startsWith("claim")).map((e) => e.action.route));
  const cities = new Set(legal.filter((e) => e.action.tag === "build_station")
    .map((e) => e.action.city));
  markTargets(routes, cities);
  if (me.selected) markSelected(me.selected.kind, me.selected.id);
  renderStatus(me);
  renderDecision(me, legal);
  renderPiles(me, legal);
  renderHand(me);
  renderPlayers(me);
  renderFinal(me.board, me.state.final);
  const table = document.getElementById("table");
  table.dataset.toAct = String(legal.length > 0);
  table.dataset.phase = view.phase;
  table.dataset.current = String(view.current);
  delete table.dataset.busy;
  me.seq += 1;
  table.dataset.seq = String(me.seq);
}

function renderStatus(me) {
  const { view } = me.state;
  const names = me.board.names;
  const you = view.seat >= 0 ? `${names[view.seat]} (seat ${view.seat})` : "watching";
  let turn;
  if (view.phase === "game_over") turn = "the game is over";
  else if (view.current === view.seat) turn = "your turn";
  else turn = `${names[view.current]} to play`;
  document.getElementById("status").textContent =
    `${me.board.map} · game ${me.gameId} · ${you} · ${turn}`;
}

function renderDecision(me, legal) {
  const box = document.getElementById("decision");
  const { view } = me.state;
  const parts = [];
  if (view.phase === "game_over") {
    parts.push(el("h3", {}, "The game is over"), el("p", {}, "The score sheet is below."));
  } else if (view.seat < 0) {
    parts.push(el("h3", {}, "Watching"), el("p", {}, `${me.board.names[view.current]} to play.`));
  } else if (!legal.length) {
    parts.push(el("h3", {}, "Waiting"), el("p", {}, `${me.board.names[view.current]} to play.`));
  } else {
    parts.push(el("h3", {}, "Your turn"));
    parts.push(...pendingInfo(me));
    if (me.selected) parts.push(...selectionControls(me, legal));
    else if (legal.some((e) => e.action.tag === "keep_tickets")) {
      parts.push(...ticketChooser(me, legal));
    } else if (legal.some((e) => OWN_CONTROL.has(e.action.tag))) {
      parts.push(el("p", { class: "hint" },
        "Take a face-up card or draw from the deck, draw tickets, or click a bright track " +
        "on the map to claim it" + (me.board.stations ? " (or a ringed city for a station)." : ".")));
    }
    const others = legal.filter((e) => !OWN_CONTROL.has(e.action.tag));
    if (others.length) {
      parts.push(el("div", { class: "choices", "data-testid": "other-actions" },
        others.map((e) => actionButton(me, e))));
    }
    parts.push(el("details", { class: "every" }, el("summary", {}, `Every legal action (${legal.length})`),
      el("div", { class: "choices" }, legal.map((e) => actionButton(me, e, undefined,
        { "data-testid": "every-action" })))));
  }
  box.replaceChildren(...parts);
}

function pendingInfo(me) {
  const { tunnel, choice } = me.state.view;
  const out = [];
  if (tunnel) {
    out.push(el("p", { "data-testid": "tunnel-info" },
      `Tunnel ${routeText(me.board, tunnel.route)}: turned up `,
      tunnel.revealed.map((c) => cardChip(c)), ` — ${tunnel.extra} more card(s) to pay.`));
  }
  if (choice) {
    const chosen = Object.entries(choice.chosen);
    out.push(el("p", { "data-testid": "choice-info" },
      `Paying ${routeText(me.board, choice.route)}: ${choice.groups} group(s) of ` +
      `${choice.size} card(s). Chosen so far: `,
      chosen.length ? chosen.map(([c, n]) => cardChip(c, n)) : "nothing", "."));
  }
  return out;
}

function selectionControls(me, legal) {
  const { kind, id } = me.selected;
  const matching = legal.filter((e) => (kind === "route"
    ? e.action.tag.startsWith("claim") && e.action.route === id
    : e.action.tag === "build_station" && e.action.city === id));
  const title = kind === "route" ? `Claim ${routeText(me.board, id)}` : `Station in ${id}`;
  return [
    el("h4", {}, title),
    el("div", { class: "choices", "data-testid": "payments" },
      matching.map((e) => actionButton(me, e, paymentLabel(e.action)))),
    el("button", { type: "button", class: "secondary", "data-testid": "cancel",
      onclick: () => { me.selected = null; render(me); } }, "Cancel"),
  ];
}

function paymentLabel(a) {
  if (a.tag === "claim_with_groups") return `${a.groups} group(s) of any cards, chosen next`;
  const cards = Object.entries(a.cards || {});
  return el("span", {}, "Pay ", cards.map(([c, n]) => cardChip(c, n)));
}

function ticketChooser(me, legal) {
  const keeps = legal.filter((e) => e.action.tag === "keep_tickets");
  const offered = me.state.view.offered;
  const boxes = offered.map((t) => el("input", { type: "checkbox", checked: true,
    "data-testid": `offer-${t}`, value: t }));
  const keep = el("button", { type: "button", "data-testid": "keep-tickets" }, "Keep");
  const note = el("span", { class: "hint" });
  const update = () => {
    const chosen = boxes.filter((b) => b.checked).map((b) => Number(b.value)).sort();
    const match = keeps.find((e) => [...e.action.tickets].sort().join() === chosen.join());
    keep.disabled = !match;
    if (match) keep.setAttribute("data-action-index", match.index);
    else keep.removeAttribute("data-action-index");
    keep.onclick = match ? () => send(me, match.index) : null;
    const least = Math.min(...keeps.map((e) => e.action.tickets.length));
    note.textContent = match ? "" : ` keep at least ${least}`;
  };
  boxes.forEach((b) => b.addEventListener("change", update));
  update();
  return [
    el("p", {}, "Choose the tickets to keep:"),
    el("ul", { class: "tickets", "data-testid": "offer" }, offered.map((t, i) =>
      el("li", {}, el("label", {}, boxes[i], " ", ticketText(me.board, t))))),
    keep, note,
  ];
}

function renderPiles(me, legal) {
  const { view } = me.state;
  const display = document.getElementById("display");
  display.replaceChildren(...view.display.map((card, slot) => {
    const entry = legal.find((e) => e.action.tag === "take_face_up" && e.action.card === card);
    const button = el("button", { type: "button", class: "slot", "data-testid": `face-up-${slot}`,
      disabled: !entry }, cardChip(card));
    if (entry) {
      button.setAttribute("data-action-index", entry.index);
      button.addEventListener("click", () => send(me, entry.index));
    }
    return button;
  }));
  pileButton(me, "deck", legal.find((e) => e.action.tag === "draw_blind"),
    `Deck: ${view.deck_size} cards`);
  pileButton(me, "ticket-deck", legal.find((e) => e.action.tag === "draw_tickets"),
    `Tickets: ${view.ticket_deck_size} left`);
  const discards = Object.values(view.discard).reduce((a, b) => a + b, 0);
  document.getElementById("discard").textContent = `Discards: ${discards}`;
}

function pileButton(me, id, entry, label) {
  const old = document.getElementById(id);
  const button = old.cloneNode(false); // drops the previous state's click handler
  button.textContent = label;
  button.disabled = !entry;
  if (entry) {
    button.setAttribute("data-action-index", entry.index);
    button.addEventListener("click", () => send(me, entry.index));
  } else {
    button.removeAttribute("data-action-index");
  }
  old.replaceWith(button);
}

function renderHand(me) {
  const { view, progress } = me.state;
  document.getElementById("hand-panel").hidden = view.seat < 0;
  const cards = Object.entries(view.hand);
  document.getElementById("hand").replaceChildren(
    ...(cards.length ? cards.map(([c, n]) => cardChip(c, n)) : [el("span", {}, "no cards")]));
  const done = new Map(progress.map((p) => [p.ticket, p.completed]));
  document.getElementById("tickets").replaceChildren(...view.tickets.map((t) => {
    const ok = done.get(t) === true;
    return el("li", { "data-testid": `ticket-${t}`, dataset: { completed: String(ok) },
      class: ok ? "done" : "open" }, ok ? "✔ " : "○ ", ticketText(me.board, t),
      ok ? " — joined" : " — not joined yet");
  }));
  if (!view.tickets.length) {
    document.getElementById("tickets").append(el("li", {}, "no tickets yet"));
  }
}

function renderPlayers(me) {
  const { view } = me.state;
  const stations = me.board.stations > 0;
  document.getElementById("players-head").replaceChildren(el("tr", {},
    ["Player", "Score", "Trains", "Cards", "Tickets", ...(stations ? ["Stations left"] : [])]
      .map((h) => el("th", {}, h))));
  document.getElementById("players").replaceChildren(...view.players.map((p) => {
    const swatch = el("span", { class: "swatch" });
    swatch.style.background = me.board.colors[p.seat];
    const name = me.board.names[p.seat] + (p.seat === view.seat ? " (you)" : "");
    return el("tr", { "data-testid": `player-${p.seat}`,
      class: p.seat === view.current && view.phase !== "game_over" ? "to-act" : "" },
    el("td", {}, swatch, name), el("td", { "data-testid": `score-${p.seat}` }, p.score),
    el("td", {}, p.trains), el("td", {}, p.hand_size), el("td", {}, p.tickets),
    ...(stations ? [el("td", {}, p.stations)] : []));
  }));
}

async function loadHistory(me, actions) {
  try {
    const { events } = await api(`/api/games/${me.gameId}/events?until=${actions}`);
    if (current === me) addEvents(me.board, events);
  } catch (err) {
    showMessage(`The earlier events could not be loaded: ${err.message}`, true);
  }
}

function addEvents(board, events) {
  const log = document.getElementById("log");
  for (const e of events) {
    const text = describeEvent(board, e);
    if (text) log.prepend(el("li", { dataset: { tag: e.tag, player: e.player } }, text));
  }
  while (log.children.length > MAX_LOG) log.lastChild.remove();
}

onMapClick(
  (route) => select("route", route),
  (city) => select("city", city),
);

function select(kind, id) {
  if (!current || !current.state) return;
  current.selected = { kind, id };
  const me = current;
  me.queue = me.queue.then(() => render(me));
}
