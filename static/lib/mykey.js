// A person's key: one secret link that brings every seat this browser holds, across games, to
// another device, which plays each seat with a link of the key's own (never the seat's own
// token), so that revoking or renewing the key takes them all back. This browser keeps the key
// it made, and only that one: the maker's secret, which alone adds seats to the key and never
// travels in a link, and the link's secret, which the link carries in its fragment (/key#...),
// never sent to the server. Seats taken here since join the key each time the front page opens.
// A key link opened here is no key of this browser's: its seats are added, nothing is sent.
// The link carries too, for each seat this browser keyed, a device key made here for the new
// device and registered signed by this browser's own (static/lib/key_devices.js).
import { call } from "./api.js";
import { confirmed, errorText, fill, h, say } from "./dom.js";
import { devicesPart, dropKeysOf, keysForNewDevice } from "./key_devices.js";
import { heldGames, rememberToken } from "./seat_store.js";

const KEY = "mykey";

// The key this browser made, {maker, link, devices}; a key kept in an older shape (the link's
// secret alone, from before links of their own) opens nothing any more and is forgotten.
export function heldKey() {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(KEY) ?? "null");
  } catch {
    kept = null;
  }
  if (kept && typeof kept.maker === "string" && typeof kept.link === "string")
    return { ...kept, devices: Array.isArray(kept.devices) ? kept.devices : [] };
  localStorage.removeItem(KEY);
  return null;
}

function keep(maker, link, devices) {
  localStorage.setItem(KEY, JSON.stringify({ maker, link, devices }));
}

function drop() {
  localStorage.removeItem(KEY);
}

export function keyLink(link, devices = []) {
  return `${window.location.origin}/key#${link}${devicesPart(devices)}`;
}

// Every seat token this browser holds, as the server takes them.
function heldSeats() {
  return heldGames().flatMap(({ gameId, tokens }) =>
    tokens.map((t) => ({ game_id: gameId, token: t.token })),
  );
}

// The seats a key link brings, kept on this device as remembered seats (Your games lists
// them): each with the key's link of it, for as long as the key stands.
export function takeSeats(seats) {
  for (const s of seats) rememberToken(s.game_id, s.token, s.label);
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
      "My key: one secret link that brings every seat this browser holds to another device, your phone or another computer, which plays them until you revoke the key. Keep it to yourself: whoever has it plays your seats.",
    ),
    h("button", { type: "button", id: "make-key", onclick: () => make(redraw) }, "Make my key"),
  ];
}

function withKey(key, redraw) {
  return [
    h(
      "p",
      { class: "muted" },
      "Open your key's link on another device to play every seat this browser holds there. Seats you take here later join it when this page opens. Keep it to yourself: whoever has it plays your seats, until you revoke the key.",
    ),
    h(
      "details",
      { id: "my-key" },
      h("summary", {}, "Show my key's link"),
      h("input", {
        type: "text",
        readonly: true,
        id: "my-key-link",
        value: keyLink(key.link, key.devices),
        "aria-label": "My key's link",
        onfocus: (e) => e.target.select(),
      }),
    ),
    h(
      "button",
      { type: "button", id: "new-key", onclick: () => renew(key, redraw) },
      "Make a new key",
    ),
    " ",
    h(
      "button",
      { type: "button", id: "revoke-key", onclick: () => revoke(key, redraw) },
      "Revoke my key",
    ),
  ];
}

// `left`: device keys an old link carried that could not be dropped (`renew`).
async function make(redraw, left = 0) {
  const seats = heldSeats();
  if (!seats.length) {
    redraw("This browser holds no seat yet: take one, then make your key.", "error");
    return;
  }
  try {
    const made = await call("POST", "/api/keys", { seats });
    keep(made.maker, made.key, await keysForNewDevice(seats));
    const said = `Your key gathers ${counted(made.seats.length)}. Open “Show my key's link” to copy it.`;
    redraw(`${said}${keysLeft(left)}`, left ? "warning" : undefined);
  } catch (error) {
    redraw(errorText(error), "error");
  }
}

async function renew(key, redraw) {
  const text =
    "Make a new key? The old key's link opens nothing from now on, and every device that took your seats through it loses them, and its device keys: open the new link there.";
  if (!(await confirmed(text, "Make a new key"))) return;
  const left = await dropKeysOf(key.devices, heldSeats());
  await make(redraw, left);
}

// What became of the device keys an old link carried, said after what became of the key.
function keysLeft(left) {
  if (!left) return "";
  return ` ${left === 1 ? "One device key" : `${left} device keys`} it carried could not be dropped from here: open the game on a device that holds your seat's key and revoke again, or ask the host for a new link for the seat.`;
}

async function revoke(key, redraw) {
  const text =
    "Revoke your key? Its link opens nothing from now on, and every device that took your seats through it loses them and the device keys it carried; this browser keeps them.";
  if (!(await confirmed(text, "Revoke"))) return;
  let said =
    "Your key is revoked: its link opens nothing now, and the device keys it carried sign nothing.";
  try {
    await call("DELETE", "/api/keys/mine", undefined, key.maker);
  } catch (error) {
    if (error.code !== "key_revoked") {
      redraw(errorText(error), "error");
      return;
    }
    said = REVOKED;
  }
  // Revoked here or elsewhere, the device keys its link carried sign nothing from now on.
  const left = await dropKeysOf(key.devices, heldSeats());
  drop();
  redraw(`${said}${keysLeft(left)}`, left || said === REVOKED ? "warning" : undefined);
}

// The seats taken on this device since join the key this browser made, and no other; a key
// revoked elsewhere is dropped here, and the device keys its link carried.
async function sync(redraw) {
  const key = heldKey();
  const seats = heldSeats();
  if (!key || !seats.length) return;
  try {
    await call("PUT", "/api/keys/mine", { seats }, key.maker);
    const devices = await keysForNewDevice(seats, key.devices);
    if (devices.length > key.devices.length) {
      keep(key.maker, key.link, devices);
      redraw();
    }
  } catch (error) {
    if (error.code === "key_revoked") {
      // Revoked elsewhere (its link's secret revokes it too): its device keys go with it.
      const left = await dropKeysOf(key.devices, seats);
      drop();
      redraw(`${REVOKED}${keysLeft(left)}`, "warning");
    }
  }
}

function counted(n) {
  return `${n} seat${n === 1 ? "" : "s"}`;
}
