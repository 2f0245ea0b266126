// The lobby: create a game (profile, variants, players, deadlines, clocks, last round, listed or
// private), list the listed games waiting for players, and "Your games": those this browser holds
// a seat in, an ended one with how it ended.
import { call } from "../lib/api.js";
import { confirmed, errorText, fill, h, say, swatch } from "../lib/dom.js";
import { renderKeyPanel } from "../lib/mykey.js";
import { Names } from "../lib/names.js";
import { markTurn } from "../lib/notify.js";
import { forgetHeld, heldGames, keepMasterToken, saveToken } from "../lib/seat_store.js";
import { endingBanner } from "../panels/ending.js";
import { turnSentence, waitingOn, waitsOn } from "../panels/table.js";

const form = document.getElementById("create");
const notice = document.getElementById("notice");
const list = document.getElementById("open-games");
const mine = document.getElementById("my-games");
const STEPS = ["candidacy", "ballot", "decree", "title_choice", "purchase"];
const VARIANTS = ["nights_watch", "title_concession", "sealed_ballots", "clocks"];
// How long a player must have been away before the table may vote on his seat: the host's
// (takeover_after, of host_role) and any player's (replace_after, of table_votes).
const VOTE_WAITS = ["takeover_after", "replace_after"];
const WEEK = 7 * 24 * 3600; // the longest deadline or time bank the server takes (R-4.3)

// Seconds from a box holding minutes ("5") or minutes:seconds ("2:30"); undefined when empty.
// A refusal names the field, so that the host knows what to change before anything is sent.
export function seconds(text, label) {
  const value = (text ?? "").trim();
  if (value === "") return undefined;
  const found = value.match(/^(\d+)(?::([0-5]\d))?$/);
  if (!found)
    throw new Error(`${label}: write minutes (5) or minutes:seconds (2:30), or 0 for none.`);
  const total = Number(found[1]) * 60 + Number(found[2] ?? 0);
  if (total > WEEK) throw new Error(`${label}: at most a week (${WEEK / 60} minutes).`);
  return total;
}

// The last round from its box (R-4.8): undefined when empty, the profile's then.
function wholeRound(text) {
  const value = (text ?? "").trim();
  if (value === "") return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 99)
    throw new Error("Last round: a round from 1 to 99, or 0 for none.");
  return Number(value);
}

// "2:30" for 150 seconds, `zero` ("none") for 0: a profile's value, shown in an empty box.
function shown(total, zero = "none") {
  if (!total) return zero;
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

function durations(data, prefix, kinds, what) {
  const out = {};
  for (const kind of kinds) {
    const label = `${what} (${kind.replaceAll("_", " ")})`;
    const value = seconds(data.get(`${prefix}-${kind}`), label);
    if (value !== undefined) out[kind] = value;
  }
  return out;
}

// The chosen profile's deadlines, time banks and last round, in the boxes left empty.
let times = {},
  lastRounds = {};
function showProfileTimes() {
  const chosen = times[form.elements.profile.value] ?? {};
  const last = lastRounds[form.elements.profile.value];
  if (last !== undefined) form.elements.last_round.placeholder = last ? String(last) : "none";
  for (const kind of STEPS) {
    const deadline = chosen.deadlines?.[kind];
    const bank = chosen.clocks?.[kind];
    if (deadline !== undefined) form.elements[`deadline-${kind}`].placeholder = shown(deadline);
    if (bank !== undefined) form.elements[`clock-${kind}`].placeholder = shown(bank);
  }
  const increment = chosen.clocks?.increment;
  if (increment !== undefined) form.elements["clock-increment"].placeholder = String(increment);
  for (const setting of VOTE_WAITS) {
    const wait = chosen.votes?.[setting];
    if (wait !== undefined) form.elements[`vote-${setting}`].placeholder = shown(wait, "at once");
  }
}

// The time banks matter only with the Clocks variant.
const clocksOn = document.getElementById("variant-clocks");
const clockSettings = document.getElementById("clock-settings");
function showClocks() {
  clockSettings.hidden = !clocksOn.checked;
}
clocksOn.addEventListener("change", showClocks);
form.elements.profile.addEventListener("change", showProfileTimes);
showClocks();

async function loadProfiles() {
  try {
    const answer = await call("GET", "/api/profiles");
    times = answer.times ?? {};
    lastRounds = answer.last_rounds ?? {};
    fill(
      form.elements.profile,
      answer.profiles.map((p) => h("option", { value: p }, p)),
    );
    showProfileTimes();
  } catch (error) {
    say(notice, errorText(error), "error");
  }
}

async function loadGames() {
  try {
    const { games } = await call("GET", "/api/games");
    fill(
      list,
      games.length
        ? games.map((g) =>
            h(
              "li",
              { "data-game": g.game_id },
              h("a", { href: `/games/${g.game_id}` }, g.name ?? `${g.host_name}'s game`),
              g.name ? ` · hosted by ${g.host_name}` : "",
              ` · ${g.seats.length} of ${g.players} seats taken · profile ${g.profile}`,
              Object.entries(g.variants)
                .filter(([, on]) => on)
                .map(([v]) => ` · ${v.replaceAll("_", " ")}`),
              h("br"),
              "Free: ",
              g.free_houses.map((house, i) => [
                i ? ", " : "",
                swatch(house.colours),
                " ",
                house.name,
              ]),
            ),
          )
        : h("li", { class: "muted" }, "No game is waiting for players. Create one!"),
    );
  } catch (error) {
    say(notice, errorText(error), "error");
  }
}

// One held game as the server shows it to each of its tokens: a token it refuses, and every
// token of a game it no longer knows, are forgotten; the game is shown with a token it accepts.
async function asked(gameId, { token, label }) {
  try {
    return {
      court: await call("GET", `/api/games/${encodeURIComponent(gameId)}`, undefined, token),
      label,
    };
  } catch (error) {
    if (error.code === "unknown_game") return { gone: true };
    if (error.code === "bad_token") {
      forgetHeld(gameId, token);
      return null;
    }
    return { court: null, label, problem: errorText(error) };
  }
}

async function heldGame({ gameId, tokens }) {
  const answers = await Promise.all(tokens.map((seat) => asked(gameId, seat)));
  if (answers.some((a) => a?.gone)) {
    forgetHeld(gameId);
    return null;
  }
  const shown = answers.find((a) => a?.court) ?? answers.find(Boolean);
  return shown ? { gameId, ...shown } : null;
}

function status(court) {
  const game = court.game;
  if (game.status === "lobby")
    return `in the lobby, ${court.seats.length} of ${game.players} seats taken`;
  if (game.status === "ended") return "ended";
  return `round ${game.round}${game.phase ? `, ${game.phase.replaceAll("_", " ")} phase` : ""}`;
}

// On a shared computer: this browser drops every seat it holds in the game (the seat itself
// stays; its link or the host brings it back).
async function forget(gameId, label) {
  const text = `Forget your seat${label ? ` as ${label}` : ""} in this game on this browser? The seat stays yours, but to play it here again you need your seat link or the host.`;
  if (!(await confirmed(text, "Forget"))) return;
  forgetHeld(gameId);
  loadMine();
}

// Whose turn it is in a held game: the seats the court waits on, and whether this browser's
// seat is one of them.
function turn(court) {
  if (court?.game.status !== "playing") return { waiting: null, mine: false };
  const names = new Names(court);
  const waiting = waitingOn(court, names);
  const what = waitsOn(court, court.viewer.seat);
  const offered = what !== null && !waiting?.seats.includes(court.viewer.seat);
  const told = offered
    ? [h("strong", {}, "Your turn: "), what]
    : waiting && turnSentence(waiting, court.viewer.seat, names);
  return { waiting: told, mine: what !== null };
}

function heldItem({ gameId, court, label, problem }) {
  const { waiting, mine } = turn(court);
  return h(
    "li",
    { "data-game": gameId, class: mine ? "your-turn" : null, "data-turn": mine ? "yours" : null },
    h(
      "a",
      { href: `/games/${encodeURIComponent(gameId)}` },
      court ? (court.game.name ?? `${court.game.host_name}'s game`) : `Game ${gameId}`,
    ),
    label ? ` · as ${label}` : "",
    court ? ` · ${status(court)}` : ` · ${problem}`,
    waiting && h("br"),
    waiting && h("span", { class: "turn" }, waiting),
    " ",
    h(
      "button",
      { type: "button", class: "forget-game", onclick: () => forget(gameId, label) },
      "Forget on this device",
    ),
    court?.ending && endingBanner(court.ending, new Names(court)),
  );
}

// The games this browser holds a seat in, those waiting on it first; the tab says so too.
async function loadMine() {
  const found = (await Promise.all(heldGames().map(heldGame))).filter(Boolean);
  const yours = found.filter((held) => turn(held.court).mine);
  markTurn(yours.length > 0);
  fill(
    mine,
    found.length
      ? [...yours, ...found.filter((held) => !yours.includes(held))].map(heldItem)
      : h("li", { class: "muted" }, "This browser holds no seat yet."),
  );
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  let deadlines, clocks, lastRound, waits;
  try {
    lastRound = wholeRound(data.get("last_round"));
    waits = durations(data, "vote", VOTE_WAITS, "Waiting time");
    deadlines = durations(data, "deadline", STEPS, "Step deadline");
    clocks = data.has("clocks") ? durations(data, "clock", STEPS, "Time bank") : {};
    const increment = data.get("clock-increment") ?? "";
    if (data.has("clocks") && increment !== "") clocks.increment = Number(increment);
  } catch (error) {
    say(notice, error.message, "error");
    return;
  }
  say(notice, "Creating…");
  try {
    const master = data.get("game_master_name").trim();
    const name = data.get("name").trim();
    const created = await call("POST", "/api/games", {
      ...(master ? { game_master_name: master } : {}),
      ...(name ? { name } : {}),
      host_name: data.get("host_name").trim(),
      players: Number(data.get("players")),
      profile: data.get("profile"),
      variants: Object.fromEntries(VARIANTS.map((v) => [v, data.has(v)])),
      deadlines,
      clocks,
      host_role: "takeover_after" in waits ? { takeover_after: waits.takeover_after } : {},
      table_votes: "replace_after" in waits ? { replace_after: waits.replace_after } : {},
      ...(lastRound !== undefined ? { last_round: lastRound } : {}),
      listed: data.has("listed"),
    });
    const label = `${data.get("host_name").trim()}, host`;
    saveToken(created.game_id, created.host_token, label, data.has("remember"));
    if (created.game_master_token) keepMasterToken(created.game_id, created.game_master_token);
    window.location.href = `/games/${created.game_id}`;
  } catch (error) {
    say(notice, errorText(error), "error");
  }
});

document.getElementById("refresh-games").addEventListener("click", () => {
  loadGames();
  loadMine();
});
loadProfiles();
loadGames();
loadMine();
renderKeyPanel(document.getElementById("key-panel")).sync();
setInterval(() => {
  loadGames();
  loadMine();
}, 15000);
