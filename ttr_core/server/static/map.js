// The map: the server draws it (GET /api/games/{id}/map.svg, claims and stations in the
// owners' colours); this module puts it in the page, marks the tracks and cities the seat
// may act on, and reports clicks on them.

let loadedFor = null; // the claims the map shown was drawn with
let pending = null;

/** Show the game's map, fetched again only when ``claimsKey`` (the claims) changed. */
export async function showMap(gameId, claimsKey) {
  if (loadedFor === `${gameId}:${claimsKey}`) return;
  const key = `${gameId}:${claimsKey}`;
  pending = key;
  const response = await fetch(`/api/games/${gameId}/map.svg`, { cache: "no-store" });
  if (!response.ok) throw new Error(`the map could not be loaded (${response.status})`);
  const text = await response.text();
  if (pending !== key) return; // a newer map was asked for meanwhile
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("data-testid", "map-svg");
  document.getElementById("map").replaceChildren(svg);
  loadedFor = key;
}

/** Forget the map shown (another game is opened). */
export function resetMap() {
  loadedFor = null;
  pending = null;
  document.getElementById("map").replaceChildren();
}

/** Mark the tracks (by id) the seat may claim and the cities it may build a station in. */
export function markTargets(routes, cities) {
  const map = document.getElementById("map");
  for (const g of map.querySelectorAll("g.route")) {
    const id = Number(g.id.slice("route-".length));
    g.classList.toggle("claimable", routes.has(id));
    g.classList.remove("selected");
  }
  for (const g of map.querySelectorAll("g.city")) {
    g.classList.toggle("buildable", cities.has(g.id.slice("city-".length)));
    g.classList.remove("selected");
  }
}

/** Mark the track or city chosen on the map. */
export function markSelected(kind, id) {
  const map = document.getElementById("map");
  for (const g of map.querySelectorAll(".selected")) g.classList.remove("selected");
  const g = map.querySelector(`[id="${kind}-${CSS.escape(String(id))}"]`);
  if (g) g.classList.add("selected");
}

/** Call ``onRoute(id)`` or ``onCity(id)`` when a marked track or city is clicked. */
export function onMapClick(onRoute, onCity) {
  document.getElementById("map").addEventListener("click", (event) => {
    const route = event.target.closest("g.route.claimable");
    if (route) { onRoute(Number(route.id.slice("route-".length))); return; }
    const city = event.target.closest("g.city.buildable");
    if (city) onCity(city.id.slice("city-".length));
  });
}
