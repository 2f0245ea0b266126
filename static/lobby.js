// The lobby: create a game (profile, variants, players, deadlines) and list the open games.
import { call, saveToken, keepMasterToken } from "./api.js";
import { h, fill, say, errorText, swatch } from "./dom.js";

const form = document.getElementById("create");
const notice = document.getElementById("notice");
const list = document.getElementById("open-games");
const STEPS = ["candidacy", "ballot", "decree", "title_choice", "purchase"];

async function loadProfiles() {
  try {
    const { profiles } = await call("GET", "/api/profiles");
    fill(form.elements.profile, profiles.map((p) => h("option", { value: p }, p)));
  } catch (error) { say(notice, errorText(error), "error"); }
}

async function loadGames() {
  try {
    const { games } = await call("GET", "/api/games");
    fill(list, games.length ? games.map((g) => h("li", { "data-game": g.game_id },
      h("a", { href: `/games/${g.game_id}` }, `${g.host_name}'s game`),
      ` · ${g.seats.length} of ${g.players} seats taken · profile ${g.profile}`,
      Object.entries(g.variants).filter(([, on]) => on).map(([v]) => ` · ${v.replaceAll("_", " ")}`),
      h("br"), "Free: ",
      g.free_houses.map((house, i) => [i ? ", " : "", swatch(house.colours), " ", house.name])))
      : h("li", { class: "muted" }, "No game is waiting for players. Create one!"));
  } catch (error) { say(notice, errorText(error), "error"); }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const deadlines = {};
  for (const step of STEPS) {
    const minutes = data.get(`deadline-${step}`);
    if (minutes !== "" && minutes !== null) deadlines[step] = Math.round(Number(minutes) * 60);
  }
  say(notice, "Creating…");
  try {
    const master = data.get("game_master_name").trim();
    const created = await call("POST", "/api/games", {
      ...(master ? { game_master_name: master } : {}),
      host_name: data.get("host_name").trim(),
      players: Number(data.get("players")),
      profile: data.get("profile"),
      variants: Object.fromEntries(["nights_watch", "title_concession", "sealed_ballots"].map((v) => [v, data.has(v)])),
      deadlines,
    });
    saveToken(created.game_id, created.host_token, `${data.get("host_name").trim()}, host`);
    if (created.game_master_token) keepMasterToken(created.game_id, created.game_master_token);
    window.location.href = `/games/${created.game_id}`;
  } catch (error) { say(notice, errorText(error), "error"); }
});

document.getElementById("refresh-games").addEventListener("click", loadGames);
loadProfiles();
loadGames();
setInterval(loadGames, 15000);
