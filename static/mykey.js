// A person's key: one secret link that gathers every seat this browser holds, across games, so
// that another device opening it takes them all. The key is kept on this device beside its seat
// tokens and travels only in a link's fragment (/key#...), which browsers never send; the server
// keeps the seats sealed under it and never the key itself. Seats taken since are added to the
// key each time the front page opens; a new key voids the old one, and a key may be revoked.
import { call, heldGames, rememberToken } from "./api.js";
import { confirmed, errorText, fill, h, say } from "./dom.js";

const KEY = "mykey";

export function heldKey() {
  return localStorage.getItem(KEY);
}

function keep(key) {
  localStorage.setItem(KEY, key);
}

function drop() {
  localStorage.removeItem(KEY);
}

export function keyLink(key) {
  return `${window.location.origin}/key#${key}`;
}

// Every seat token this browser holds, as the server takes them.
function heldSeats() {
  return heldGames().flatMap(({ gameId, tokens }) =>
    tokens.map((t) => ({ game_id: gameId, token: t.token })),
  );
}

// The seats a key gathers, kept on this device as remembered seats (Your games lists them).
export function takeSeats(key, seats) {
  for (const s of seats) rememberToken(s.game_id, s.token, s.label);
  keep(key);
}

const REVOKED = "Your key was revoked or replaced by a newer one: its link opens nothing now.";

// The front page's panel: make the key, show its link, make a new one or revoke it.
export function renderKeyPanel(el) {
  const status = h("p", { class: "notice", role: "status", hidden: true });
  const draw = (message, kind) => {
    const key = heldKey();
    fill(el, key ? withKey(key, redraw) : withoutKey(redraw), status);
    if (message) say(status, message, kind);
  };
  const redraw = (message, kind = "success") => draw(message, kind);
  draw();
  return { sync: () => sync(redraw) };
}

function withoutKey(redraw) {
  return [
    h(
      "p",
      { class: "muted" },
      "My key: one secret link that brings every seat this browser holds to another device, your phone or another computer. Keep it to yourself: whoever has it plays your seats.",
    ),
    h("button", { type: "button", id: "make-key", onclick: () => make(redraw) }, "Make my key"),
  ];
}

function withKey(key, redraw) {
  return [
    h(
      "p",
      { class: "muted" },
      "Open your key's link on another device to take every seat this browser holds there. Seats you take here later join it when this page opens. Keep it to yourself: whoever has it plays your seats.",
    ),
    h(
      "details",
      { id: "my-key" },
      h("summary", {}, "Show my key's link"),
      h("input", {
        type: "text",
        readonly: true,
        id: "my-key-link",
        value: keyLink(key),
        "aria-label": "My key's link",
        onfocus: (e) => e.target.select(),
      }),
    ),
    h("button", { type: "button", id: "new-key", onclick: () => renew(redraw) }, "Make a new key"),
    " ",
    h(
      "button",
      { type: "button", id: "revoke-key", onclick: () => revoke(key, redraw) },
      "Revoke my key",
    ),
  ];
}

async function make(redraw) {
  const seats = heldSeats();
  if (!seats.length) {
    redraw("This browser holds no seat yet: take one, then make your key.", "error");
    return;
  }
  try {
    const made = await call("POST", "/api/keys", { seats });
    takeSeats(made.key, made.seats);
    redraw(`Your key gathers ${counted(made.seats.length)}. Open “Show my key's link” to copy it.`);
  } catch (error) {
    redraw(errorText(error), "error");
  }
}

async function renew(redraw) {
  const text =
    "Make a new key? The old key's link stops working on every device that has not opened it yet.";
  if (!(await confirmed(text, "Make a new key"))) return;
  await make(redraw);
}

async function revoke(key, redraw) {
  const text =
    "Revoke your key? Its link opens nothing from now on; the seats stay yours on every device that holds them.";
  if (!(await confirmed(text, "Revoke"))) return;
  try {
    await call("DELETE", "/api/keys/mine", undefined, key);
    drop();
    redraw("Your key is revoked: its link opens nothing now.");
  } catch (error) {
    if (error.code === "key_revoked") {
      drop();
      redraw(REVOKED, "warning");
      return;
    }
    redraw(errorText(error), "error");
  }
}

// The seats taken on this device since join the key; a key revoked elsewhere is dropped here.
async function sync(redraw) {
  const key = heldKey();
  const seats = heldSeats();
  if (!key || !seats.length) return;
  try {
    await call("PUT", "/api/keys/mine", { seats }, key);
  } catch (error) {
    if (error.code === "key_revoked") {
      drop();
      redraw(REVOKED, "warning");
    }
  }
}

function counted(n) {
  return `${n} seat${n === 1 ? "" : "s"}`;
}
