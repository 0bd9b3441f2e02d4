// Small helpers shared by the lobby and the table: building elements, naming cards,
// tickets and tracks, and showing a message.

export const CARD_COLORS = {
  red: "#d9312b", orange: "#f29a2e", yellow: "#f5d82a", green: "#3d9a47",
  blue: "#2f6fc2", pink: "#ea8cbd", black: "#2b2b2b", white: "#fbfaf5",
  locomotive: "linear-gradient(135deg, #d9312b, #f5d82a, #3d9a47, #2f6fc2)",
  gray: "#a9a49b",
};

const DARK = new Set(["black", "blue", "red", "green"]);

/** A new element with attributes (``dataset`` and ``on*`` handled) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== undefined) node.dataset[k] = v;
    }
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A card chip: a coloured box with the card's name. */
export function cardChip(name, count) {
  const chip = el("span", { class: "card", dataset: { card: name } },
    count === undefined ? name : `${count} × ${name}`);
  chip.style.background = CARD_COLORS[name] || "#ccc";
  if (DARK.has(name)) chip.classList.add("dark");
  return chip;
}

/** A card mapping ``{"red": 2, "locomotive": 1}`` in words. */
export function cardsText(cards) {
  const parts = Object.entries(cards || {}).map(([name, n]) => `${n} ${name}`);
  return parts.length ? parts.join(" + ") : "no cards";
}

/** A ticket by id, e.g. ``Denver–El Paso (4)``. */
export function ticketText(board, id) {
  const t = board.ticketById.get(id);
  if (!t) return `ticket ${id}`;
  if (t.b !== null) return `${t.a}–${t.b} (${t.points})`;
  const targets = Object.entries(t.targets || {}).map(([c, p]) => `${c} (${p})`);
  return `${t.a}–${targets.join("/")}`;
}

/** A track by id, e.g. ``Denver–Omaha, 4 red``. */
export function routeText(board, id) {
  const r = board.routeById.get(id);
  if (!r) return `track ${id}`;
  const kind = r.tunnel ? ", tunnel" : r.ferry ? `, ferry (${r.ferry} loco)` : "";
  return `${r.a}–${r.b}, ${r.length} ${r.color}${kind}`;
}

/** Show ``text`` in the message bar (an error when ``isError``); empty text hides it. */
export function showMessage(text, isError = false) {
  const bar = document.getElementById("message");
  bar.textContent = text;
  bar.hidden = !text;
  bar.classList.toggle("error", isError);
  bar.dataset.testid = isError ? "error" : "message";
}

/** GET or POST JSON; an answer with an ``error`` throws it as an Error. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

/** The hash's parameters: ``#game=ID&token=T``. */
export function hashParams() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}
