// The lobby: create a game (edition, seats, bots, seed), hand out its seats' links,
// and list every game with links to play, watch or download its record.

import { api, el, showMessage } from "./common.js";

const MY_SEATS = "ttr-seats"; // localStorage: {gameId: {seat: token}} of games made here
let choices = null;
let timer = null;

function mySeats() {
  try { return JSON.parse(localStorage.getItem(MY_SEATS) || "{}"); } catch { return {}; }
}

function remember(gameId, seats) {
  const all = mySeats();
  all[gameId] = Object.fromEntries(seats.filter((s) => s.token).map((s) => [s.seat, s.token]));
  localStorage.setItem(MY_SEATS, JSON.stringify(all));
}

/** The link that opens a seat (with its token) or, without a token, the spectator's table. */
export function tableLink(gameId, token) {
  const hash = token ? `#game=${gameId}&token=${encodeURIComponent(token)}` : `#game=${gameId}`;
  return `${location.origin}/${hash}`;
}

function edition() {
  const id = document.getElementById("create-edition").value;
  return choices.editions.find((e) => e.id === id);
}

function fillCounts() {
  const ed = edition();
  const count = document.getElementById("create-count");
  const before = Number(count.value) || 2;
  count.replaceChildren();
  for (let n = ed.min_players; n <= ed.max_players; n++) count.append(el("option", { value: n }, n));
  count.value = String(Math.min(Math.max(before, ed.min_players), ed.max_players));
  fillSeats();
}

function fillSeats() {
  const body = document.getElementById("create-seats");
  const n = Number(document.getElementById("create-count").value);
  const rows = [...body.rows];
  while (rows.length > n) rows.pop().remove();
  for (let s = rows.length; s < n; s++) {
    const kind = el("select", { name: "kind", "data-testid": `seat-kind-${s}` },
      el("option", { value: "" }, "a person"),
      choices.bots.map((b) => el("option", { value: b }, `bot: ${b}`)));
    if (s > 0) kind.value = choices.bots.includes("greedy") ? "greedy" : choices.bots[0];
    const name = el("input", {
      name: "name", value: s === 0 ? "You" : `Player ${s + 1}`, maxlength: 40, required: true,
      "data-testid": `seat-name-${s}`,
    });
    body.append(el("tr", {}, el("td", {}, s), el("td", {}, name), el("td", {}, kind)));
  }
}

async function create(event) {
  event.preventDefault();
  const players = [...document.getElementById("create-seats").rows].map((row) => {
    const name = row.querySelector("[name=name]").value.trim();
    const bot = row.querySelector("[name=kind]").value;
    return bot ? { name, bot } : { name };
  });
  const body = { edition: edition().id, players };
  const seed = document.getElementById("create-seed").value;
  if (seed !== "") body.seed = Number(seed);
  try {
    const made = await api("/api/games", body);
    remember(made.id, made.seats);
    showCreated(made);
    showMessage("");
    await refresh();
  } catch (err) {
    showMessage(`The game was not created: ${err.message}`, true);
  }
}

function showCreated(made) {
  const box = document.getElementById("created");
  const humans = made.seats.filter((s) => s.token);
  box.replaceChildren(
    el("h3", {}, `Game ${made.id} is set up`),
    el("p", {}, humans.length
      ? "Each link below holds a seat: open yours, and hand the others to the other players."
      : "Every seat is a bot: watch the game."),
    el("ul", { class: "links" }, humans.map((s) => {
      const link = tableLink(made.id, s.token);
      return el("li", {}, `Seat ${s.seat} (${s.name}): `,
        el("a", { href: link, "data-testid": `join-${s.seat}` }, "play this seat"), " ",
        el("input", { class: "link", readonly: true, value: link, size: 40,
          "data-testid": `join-link-${s.seat}` }));
    })),
    el("p", {}, el("a", { href: tableLink(made.id), "data-testid": "watch-created" }, "Watch")),
  );
  box.dataset.game = made.id;
  box.hidden = false;
}

function scoresText(game) {
  if (!game.scores) return "";
  return game.scores.map((s) => `${s.name} ${s.total}${s.winner ? " ★" : ""}`).join(", ");
}

function gameRow(game) {
  const seats = mySeats()[game.id] || {};
  const players = game.players.map((p) => (p.bot ? `${p.name} (${p.bot})` : p.name)).join(", ");
  const turn = game.current === null ? "—" : game.players[game.current].name;
  const links = [el("a", { href: tableLink(game.id), "data-testid": `watch-${game.id}` }, "watch")];
  for (const [seat, token] of Object.entries(seats)) {
    links.push(" ", el("a", { href: tableLink(game.id, token),
      "data-testid": `play-${game.id}-${seat}` }, `play seat ${seat}`));
  }
  if (game.status === "finished") {
    links.push(" ", el("a", { href: `/api/games/${game.id}/record`, download: `${game.id}.json`,
      "data-testid": `record-${game.id}` }, "record"));
  }
  return el("tr", { "data-testid": `game-${game.id}`, dataset: { status: game.status } },
    el("td", { class: "mono" }, game.id), el("td", {}, game.edition), el("td", {}, players),
    el("td", { "data-testid": `game-status-${game.id}` }, game.status),
    el("td", {}, turn), el("td", {}, scoresText(game)), el("td", {}, links));
}

async function refresh() {
  try {
    const { games } = await api("/api/games");
    document.getElementById("games").replaceChildren(...games.reverse().map(gameRow));
  } catch (err) {
    showMessage(`The games could not be listed: ${err.message}`, true);
  }
}

/** Show the lobby (loading the editions and bots the first time) and keep its list fresh. */
export async function showLobby() {
  document.getElementById("lobby").hidden = false;
  document.getElementById("status").textContent = "Lobby";
  if (choices === null) {
    choices = await api("/api/lobby");
    const select = document.getElementById("create-edition");
    for (const ed of choices.editions) select.append(el("option", { value: ed.id }, ed.name));
    select.value = choices.editions.some((e) => e.id === "usa") ? "usa" : choices.editions[0].id;
    select.addEventListener("change", fillCounts);
    document.getElementById("create-count").addEventListener("change", fillSeats);
    document.getElementById("create-form").addEventListener("submit", create);
    document.getElementById("refresh").addEventListener("click", refresh);
    fillCounts();
  }
  await refresh();
  clearInterval(timer);
  timer = setInterval(refresh, 3000);
}

/** Hide the lobby and stop refreshing its list. */
export function hideLobby() {
  clearInterval(timer);
  timer = null;
  document.getElementById("lobby").hidden = true;
}
