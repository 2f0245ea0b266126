// Taking a seat: the invite link (with a private game's secret, for the host), listing the game,
// joining with a House, resuming a seat this device holds, leaving, and the host's start.

import { confirmed, fill, h, onPage, swatch } from "../lib/dom.js";
import {
  dropKept,
  forgetToken,
  inviteFor,
  inviteLink,
  keptSeats,
  rememberToken,
  saveToken,
  tokenFor,
} from "../lib/seat_store.js";
import { NAMES, PRESENCE } from "../lib/sections.js";
import { renameForm } from "./gamename.js";
import { renderSeats } from "./seats.js";

// The link that lets someone take a seat: a private game's carries its invite secret, which only
// the host's and the game master's views hold; a listed game's page is open to anyone.
function inviteField(court, ctx) {
  if (!court.invite && !court.game.listed) return null;
  const url = inviteLink(ctx.gameId, court.invite);
  const field = h("input", {
    id: "invite-url",
    type: "text",
    readonly: true,
    value: url,
    size: Math.min(url.length, 48),
  });
  const copy = async () => {
    onPage(field).select();
    try {
      await navigator.clipboard.writeText(url);
      ctx.notify("Invite link copied.");
    } catch {
      ctx.notify("Select the link and copy it by hand.");
    }
  };
  return h(
    "p",
    { class: "invite" },
    h("label", { for: "invite-url" }, "Invite link "),
    field,
    h("button", { type: "button", onclick: copy }, "Copy"),
    court.invite && !court.game.listed
      ? h("span", { class: "muted" }, " Anyone with this link can take a free seat.")
      : null,
  );
}

function listingToggle(court, ctx) {
  const move = court.moves.find((m) => m.message === "change_listing");
  if (!move) return null;
  const listed = move.payload.listed;
  return h(
    "p",
    { class: "listing" },
    court.game.listed
      ? "This game is listed on the front page. "
      : "This game is private: only the invite link opens a seat. ",
    h(
      "button",
      {
        type: "button",
        id: "toggle-listing",
        onclick: () => ctx.send("change_listing", { listed }),
      },
      listed ? "List this game publicly" : "Take it off the front page",
    ),
  );
}

// The Houses this viewer may take: the moves list them (a listed game, or the host); a private
// game's free Houses are offered to whoever opened the page with its invite.
function joinable(court, ctx) {
  const moved = court.moves.filter((m) => m.message === "join").map((m) => m.payload.house);
  if (
    moved.length ||
    court.game.listed ||
    court.viewer.role !== "spectator" ||
    !inviteFor(ctx.gameId)
  )
    return moved;
  if (court.seats.length >= court.game.players) return [];
  return court.houses.filter((house) => house.seat === null).map((house) => house.id);
}

// The House this page chose to join with: kept across redraws, so that when someone else takes
// it first the form says so and waits for another choice, never seating the player elsewhere.
let wanted = null;

function houseSelect(houses, court, names) {
  const lost = wanted !== null && !houses.includes(wanted);
  const select = h(
    "select",
    {
      id: "join-house",
      name: "house",
      required: true,
      onchange: (e) => {
        if (e.target.value) wanted = e.target.value;
      },
    },
    lost && h("option", { value: "", selected: true }, "— choose another House —"),
    houses.map((id) => h("option", { value: id }, names.house(id))),
  );
  if (!lost) return [select, null];
  const taker = court.seats.find((s) => s.house === wanted);
  const warning = h(
    "p",
    { class: "notice warning", id: "join-house-taken", role: "alert" },
    `${names.house(wanted)} was taken${taker ? ` by ${taker.player_name}` : ""} before you joined. Choose another House.`,
  );
  return [select, warning];
}

function joinForm(court, names, ctx) {
  const houses = joinable(court, ctx);
  if (!houses.length) return null;
  // The host gave his name when he created the game: he takes a seat without typing it again.
  const name = h("input", {
    id: "join-name",
    name: "player_name",
    required: true,
    maxlength: 40,
    autocomplete: "nickname",
    value: court.viewer.host ? court.game.host_name : null,
  });
  const remember = h("input", { type: "checkbox", id: "join-remember", checked: true });
  const [house, taken] = houseSelect(houses, court, names);
  const submit = async (event) => {
    event.preventDefault();
    const { elements } = event.currentTarget;
    const chosen = elements.house.value;
    const playerName = elements.player_name.value.trim();
    const keep = onPage(remember).checked;
    wanted = chosen;
    const invite = inviteFor(ctx.gameId);
    const ack = await ctx.send("join", {
      house: chosen,
      player_name: playerName,
      ...(invite ? { invite } : {}),
    });
    if (!ack) return;
    wanted = null;
    // The host keeps the host token: it stands for the host's seat too.
    const label = `${playerName}, ${names.house(ack.house)}`;
    const held = tokenFor(ctx.gameId);
    if (!held) saveToken(ctx.gameId, ack.token, label, keep);
    else if (keep) rememberToken(ctx.gameId, held, label);
    ctx.notify(`You sit at seat ${ack.seat + 1} as ${names.house(ack.house)}.`);
    ctx.reconnect();
  };
  // Filling the form in makes the House shown the one chosen, even if never changed.
  const choose = () => {
    if (wanted === null && onPage(house).value) wanted = onPage(house).value;
  };
  return h(
    "form",
    { id: "join-form", class: "move", onsubmit: submit, onfocusin: choose },
    h(
      "fieldset",
      {},
      h("legend", {}, "Take a seat"),
      h("label", { for: "join-name" }, "Your name ", name),
      h("label", { for: "join-house" }, "House ", house),
      taken,
      h(
        "ul",
        { class: "house-choices" },
        houses.map((id) => h("li", {}, swatch(names.colours(id)), " ", names.house(id))),
      ),
      h(
        "label",
        { for: "join-remember" },
        remember,
        " Remember this seat on this device (untick it on a shared computer)",
      ),
      h("button", { type: "submit" }, "Join"),
    ),
  );
}

function watching(court, ctx, start) {
  if (court.viewer.seat !== null || start || joinable(court, ctx).length) return null;
  const full = court.seats.length >= court.game.players;
  if (!full && court.viewer.role === "spectator" && !court.game.listed) {
    return h(
      "p",
      { class: "muted", id: "private-game" },
      "This game is private: ask the host for the invite link to take a seat. You are watching.",
    );
  }
  return full ? h("p", { class: "muted" }, "Every seat is taken; you are watching.") : null;
}

function resumeList(court, ctx) {
  const mine = tokenFor(ctx.gameId);
  const kept = keptSeats(ctx.gameId).filter((s) => s.token !== mine);
  if (!kept.length || court.viewer.seat !== null) return null;
  const resume = (token) => {
    sessionStorage.setItem(`token:${ctx.gameId}`, token);
    ctx.reconnect();
  };
  return h(
    "div",
    { class: "resume" },
    h("p", {}, "This device remembers a seat in this game. Open it here, or join as someone new:"),
    kept.map((s) =>
      h("button", { type: "button", onclick: () => resume(s.token) }, `Resume as ${s.label}`),
    ),
  );
}

// The sections of the court view this panel reads (lib/sections.js).
export const SEATING_READS = [
  "game",
  "invite",
  "moves",
  "host_role",
  "table",
  "devices",
  PRESENCE,
  ...NAMES,
];

export function renderSeating(el, court, names, ctx) {
  const lobby = court.game.status === "lobby";
  const leave = court.moves.some((m) => m.message === "leave");
  const start = court.moves.some((m) => m.message === "start");
  const doLeave = async () => {
    const token = tokenFor(ctx.gameId);
    const text = "Leave your seat? Someone else may take your House before you join again.";
    if (!(await confirmed(text, "Leave"))) return;
    if (!(await ctx.send("leave", {}))) return;
    if (!court.viewer.host) {
      forgetToken(ctx.gameId);
      dropKept(ctx.gameId, token);
    }
    ctx.reconnect();
  };
  fill(
    el,
    lobby && inviteField(court, ctx),
    lobby && listingToggle(court, ctx),
    lobby && renameForm(court, ctx),
    resumeList(court, ctx),
    lobby && joinForm(court, names, ctx),
    lobby && watching(court, ctx, start),
    renderSeats(court, names, ctx),
    leave && h("button", { type: "button", id: "leave-seat", onclick: doLeave }, "Leave your seat"),
    start &&
      h(
        "button",
        {
          type: "button",
          id: "move-start",
          class: "primary",
          "data-message": "start",
          onclick: () => ctx.send("start", {}),
        },
        "Start the game",
      ),
    lobby &&
      court.viewer.host &&
      !start &&
      h(
        "p",
        { class: "muted" },
        `Start is possible when all ${court.game.players} seats are taken.`,
      ),
  );
  el.hidden = !el.childElementCount;
}
