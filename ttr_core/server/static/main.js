// The page's entry: the hash picks the lobby (no game) or the table of a game
// (``#game=ID`` to watch, ``#game=ID&token=T`` to play a seat).

import { hashParams } from "./common.js";
import { showLobby, hideLobby } from "./lobby.js";
import { openTable, closeTable } from "./table.js";

function route() {
  const params = hashParams();
  const game = params.get("game");
  if (game) {
    hideLobby();
    openTable(game, params.get("token"));
  } else {
    closeTable();
    showLobby();
  }
}

window.addEventListener("hashchange", route);
route();
