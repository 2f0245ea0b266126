import { call, saveToken, tokenFor } from "./api.js";

const gameId = document.querySelector("script[data-game]").dataset.game;
const status = document.getElementById("status");

function show(message, isError = false) {
  status.textContent = message;
  status.className = isError ? "error" : "";
}

function render(view) {
  const { game, seats, houses, viewer } = view;
  show(`Status: ${game.status} · ${seats.length} of ${game.players} seats taken · version ${game.version}`);
  document.getElementById("seats").replaceChildren(...seats.map((s) => {
    const li = document.createElement("li");
    li.textContent = `Seat ${s.seat + 1}: ${s.player_name} (${s.house})${s.host ? " · host" : ""}`;
    return li;
  }));
  document.getElementById("houses").replaceChildren(...houses.filter((h) => h.seat !== null).map((h) => {
    const div = document.createElement("div");
    div.className = "house";
    div.style.setProperty("--primary", h.colours[0] ?? "#6b7280");
    div.textContent = `${h.name} · ${h.treasury ?? "-"} GD · ${h.nobles.length} nobles`;
    return div;
  }));
  const free = houses.filter((h) => h.seat === null);
  const canJoin = game.status === "lobby" && viewer.seat === null && seats.length < game.players;
  document.getElementById("join").hidden = !canJoin;
  document.getElementById("house-choice").replaceChildren(...free.map((h) => new Option(h.name, h.id)));
  document.getElementById("start").hidden = !(viewer.host && game.status === "lobby" && seats.length === game.players);
}

async function refresh() {
  try { render(await call("GET", `/api/games/${gameId}`, undefined, tokenFor(gameId))); }
  catch (error) { show(`${error.code}: ${error.message}`, true); }
}

document.getElementById("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  try {
    const joined = await call("POST", `/api/games/${gameId}/seats`,
      { house: data.get("house"), player_name: data.get("player_name") }, tokenFor(gameId));
    saveToken(gameId, joined.token);
    await refresh();
  } catch (error) { show(`${error.code}: ${error.message}`, true); }
});

document.getElementById("start-button").addEventListener("click", async () => {
  try { await call("POST", `/api/games/${gameId}/start`, {}, tokenFor(gameId)); await refresh(); }
  catch (error) { show(`${error.code}: ${error.message}`, true); }
});

refresh();
