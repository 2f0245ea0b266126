// Seats follow the player (docs/protocol.md): this seat's link for another device, remembering
// or forgetting the seat on this device, the host's panel of seats (a new link, the host role,
// removing a player in the lobby), the seats' vote to make a seat the host once he is gone, and
// what a seat handed to a new link does not show, until its new player has said his name.

import { confirmed, h, listen, onPage } from "../lib/dom.js";
import {
  dropKept,
  forgetSeat,
  remembered,
  rememberToken,
  tokenFor,
  tokenLink,
} from "../lib/seat_store.js";
import { claimForm } from "./claim.js";
import { renameForm } from "./gamename.js";

export function copyField(id, label, value, ctx) {
  const field = h("input", {
    id,
    type: "text",
    readonly: true,
    value,
    "aria-label": label,
    size: 40,
    onfocus: (e) => e.target.select(),
  });
  const copy = async () => {
    onPage(field).select();
    try {
      await navigator.clipboard.writeText(value);
      ctx.notify(`${label} copied.`);
    } catch {
      ctx.notify("Select the link and copy it by hand.");
    }
  };
  return [field, h("button", { type: "button", onclick: copy }, "Copy")];
}

// The viewer's own seat on this device: the link, remember, forget.
function ownSeat(court, names, ctx) {
  const token = tokenFor(ctx.gameId);
  if (!token || court.viewer.seat === null) return null;
  const label = names.seat(court.viewer.seat).replace(" — you", "");
  const remember = h("input", {
    type: "checkbox",
    id: "remember-seat",
    checked: remembered(ctx.gameId, token),
  });
  listen(remember, "change", (event) => {
    const { checked } = event.currentTarget;
    if (checked) rememberToken(ctx.gameId, token, label);
    else dropKept(ctx.gameId, token);
    ctx.notify(
      checked
        ? "This device remembers your seat."
        : "This device keeps your seat for this tab only.",
    );
  });
  const forget = async () => {
    const sure = await confirmed(
      "Forget your seat on this device? This page then watches as a spectator; to play again you need your seat link or the host.",
      "Forget",
    );
    if (!sure) return;
    forgetSeat(ctx.gameId);
    ctx.notify("This device forgot your seat; you are watching as a spectator.");
    ctx.reconnect();
  };
  // One line until opened: on a phone the game itself comes right after it.
  return h(
    "div",
    { class: "own-seat", id: "own-seat" },
    h(
      "details",
      {},
      h("summary", {}, "Your seat: its link, this device"),
      h("p", {}, "The seat link plays this seat on another device."),
      h(
        "p",
        { class: "warning" },
        "Anyone with this link plays your seat. Send it only to yourself.",
      ),
      copyField("seat-link", "Seat link", tokenLink(ctx.gameId, token), ctx),
      newDevice(court, token, ctx),
      deviceKeys(court, ctx),
      h(
        "p",
        {},
        h("label", { for: "remember-seat" }, remember, " Remember this seat on this device"),
        " ",
        h(
          "button",
          { type: "button", id: "forget-seat", onclick: forget },
          "Forget this seat on this device",
        ),
      ),
    ),
  );
}

// A link for a new device of the player's once his seat signs its moves: it carries a key made
// here for the new device and registered signed by this device's key. Shown until the page is
// left, kept nowhere.
let deviceLink = null;

function newDevice(court, token, ctx) {
  const holder = court.viewer.holder;
  if (!(court.devices ?? []).some((k) => k.holder === holder)) return null;
  const make = async () => {
    deviceLink = await ctx.newDeviceLink(token).catch((error) => {
      ctx.notify(error.message, "error");
      return null;
    });
    ctx.redraw();
  };
  return h(
    "p",
    {},
    "Your seat signs its moves with a key on this device. A new device of yours needs a key this one vouches for: ",
    deviceLink
      ? copyField("device-link", "Link for a new device", deviceLink, ctx)
      : h(
          "button",
          { type: "button", id: "make-device-link", onclick: make },
          "Make a link for a new device",
        ),
  );
}

// This device's key of the viewer, once asked (undefined: not yet; null: it holds none).
let ownKeyId;

// The keys that sign for the viewer's seat, one per device, this device's marked: any other
// may be dropped from here (a lost or retired device), never the last.
function deviceKeys(court, ctx) {
  const holder = court.viewer.holder;
  const keys = (court.devices ?? []).filter((k) => k.holder === holder);
  ctx.ownKeyId().then((id) => {
    if (id === ownKeyId) return;
    ownKeyId = id;
    ctx.redraw();
  });
  if (keys.length < 2) return null;
  const drop = async (keyId) => {
    const sure = await confirmed(
      `Drop key ${keyId.slice(0, 8)}…? The device that holds it signs nothing for your seat from now on: drop the key of a device you lost or no longer use.`,
      "Drop",
    );
    if (sure) await ctx.send("drop_device_key", { key_id: keyId });
  };
  const item = (k) =>
    h(
      "li",
      { "data-key": k.key_id },
      `Key ${k.key_id.slice(0, 8)}…`,
      k.key_id === ownKeyId
        ? " (this device)"
        : [
            " ",
            h(
              "button",
              { type: "button", class: "drop-key", onclick: () => drop(k.key_id) },
              "Drop",
            ),
          ],
    );
  return h(
    "div",
    { id: "device-keys" },
    h("p", {}, "The keys that sign for your seat, one per device:"),
    h("ul", {}, ...keys.map(item)),
  );
}

// The new links the host made on this page, by seat: shown until the page is left, kept nowhere.
const handed = new Map();

function handedLink(seat, ctx) {
  const link = handed.get(seat);
  return (
    link &&
    h(
      "p",
      { class: "handed", "data-seat": seat },
      `The new link of seat ${seat + 1} (the old one no longer works; it is not shown again once you leave this page): `,
      ...copyField(`handed-link-${seat}`, "New seat link", link, ctx),
    )
  );
}

// One row of the host's panel for a seat.
function hostRow(seat, court, names, ctx) {
  const row = h("li", { "data-seat": seat.seat });
  const name = h("input", {
    type: "text",
    maxlength: 40,
    placeholder: "new player's name (optional)",
    size: 30,
    "aria-label": `New player for ${seat.player_name}`,
    id: `hand-name-${seat.seat}`,
  });
  const who = `${seat.player_name} (${names.house(seat.house)})`;
  const newLink = async () => {
    const player = onPage(name).value.trim();
    const sure = await confirmed(
      `Give the seat of ${who} a new link${player ? ` for ${player}` : ""}? The link it uses now stops working at once: that device watches as a spectator until it gets the new link.`,
      "Make a new link",
    );
    if (!sure) return;
    const ack = await ctx.send(
      "hand_seat",
      player ? { seat: seat.seat, player_name: player } : { seat: seat.seat },
    );
    if (!ack) return;
    handed.set(seat.seat, tokenLink(ctx.gameId, ack.token));
    ctx.redraw();
  };
  const lobby = court.game.status === "lobby";
  const own = seat.seat === court.viewer.seat;
  return fillRow(
    row,
    `${names.seat(seat.seat)}${seat.host ? " (host)" : ""} `,
    name,
    h("button", { type: "button", class: "hand-seat", onclick: newLink }, "New link"),
    !seat.host &&
      h(
        "button",
        {
          type: "button",
          class: "hand-host",
          onclick: async () => {
            const text = `Make ${who} the host? The host role goes to that seat at once: you no longer record facts or manage seats, and only the new host can hand it back.`;
            if (await confirmed(text, "Make host")) ctx.send("hand_host", { seat: seat.seat });
          },
        },
        "Make host",
      ),
    lobby &&
      !own &&
      !seat.host &&
      h(
        "button",
        {
          type: "button",
          class: "remove-seat",
          onclick: async () => {
            const text = `Remove ${who} from the table? The seat is free again and the link it uses stops working.`;
            if (await confirmed(text, "Remove")) ctx.send("remove_seat", { seat: seat.seat });
          },
        },
        "Remove",
      ),
    handedLink(seat.seat, ctx),
  );
}

function fillRow(row, ...children) {
  row.append(...children.filter(Boolean));
  return row;
}

// The host's tools for seats; none once the game is over, when nothing can change hands.
function hostPanel(court, names, ctx) {
  if (!court.viewer.host || !court.seats.length || court.game.status === "ended") return null;
  return h(
    "details",
    { class: "host-seats", id: "host-seats" },
    h("summary", {}, "Seats (host): links, host role, the game's name"),
    h(
      "ul",
      {},
      court.seats.map((s) => hostRow(s, court, names, ctx)),
    ),
    // Named in the lobby's open form; once play starts, here, out of the way of the game.
    court.game.status !== "lobby" && renameForm(court, ctx),
  );
}

// When the seats may vote a new host, from the court view's `host_role` and the `presence` push:
// never before the start, never while the host is connected, and only once he has had no
// connection for the game's takeover time. The votes that count are those cast since he left.
let takeoverTimer = null;

const clockTime = (seconds) =>
  new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

function takeover(court, ctx) {
  const role = court.host_role;
  const presence = ctx.presence();
  clearTimeout(takeoverTimer);
  if (!role.open) return { open: false, text: role.message };
  if (!presence || presence.stale)
    return { open: false, text: "Whether the host is connected is not known right now." };
  const away = presence.host_away_since;
  if (away === null)
    return {
      open: false,
      text: "The host is connected: while he is here, only he hands the host role on.",
    };
  const from = away + role.takeover_after;
  const wait = from - ctx.clock.now();
  if (wait > 0) {
    takeoverTimer = setTimeout(() => ctx.redraw(), wait * 1000 + 250);
    return {
      open: false,
      text: `The host has had no connection since ${clockTime(away)}: the other seats may vote a new host in from ${clockTime(from)}.`,
    };
  }
  return {
    open: true,
    away,
    text: `The host has had no connection since ${clockTime(away)}. ${role.votes_needed} of the ${role.electors} other seats' votes for one seat make it the host.`,
  };
}

function voteButton(seat, mine, count, ctx) {
  const votes = ` (${count} vote${count === 1 ? "" : "s"})`;
  if (mine === seat.seat)
    return [
      h(
        "button",
        {
          type: "button",
          class: "withdraw-vote",
          onclick: () => ctx.send("vote_host", { seat: null }),
        },
        `Withdraw your vote for ${seat.player_name}`,
      ),
      votes,
    ];
  return [
    h(
      "button",
      {
        type: "button",
        class: "vote-host",
        "data-seat": seat.seat,
        onclick: () => ctx.send("vote_host", { seat: seat.seat }),
      },
      `Vote to make ${seat.player_name} host`,
    ),
    votes,
  ];
}

// Seats other than the host's vote to make a seat the host when the host is gone.
function votePanel(court, ctx) {
  const me = court.seats.find((s) => s.seat === court.viewer.seat);
  if (!me || court.viewer.host || court.game.status === "ended") return null;
  const now = takeover(court, ctx);
  const counted = now.open
    ? court.host_role.votes.filter((v) => v.at !== null && v.at >= now.away)
    : [];
  const mine = counted.find((v) => v.seat === me.seat)?.for_seat;
  const votes = (seat) => counted.filter((v) => v.for_seat === seat).length;
  return h(
    "details",
    { class: "host-vote", id: "host-vote" },
    h("summary", {}, "The host is gone? Vote for a new host"),
    h("p", { class: "muted", id: "host-vote-status" }, now.text),
    now.open &&
      h(
        "ul",
        {},
        court.seats
          .filter((s) => !s.host)
          .map((s) => h("li", {}, ...voteButton(s, mine, votes(s.seat), ctx))),
      ),
  );
}

// A seat handed to this page's link, by the host or by the table's vote: what it held sealed
// before is not shown here.
function handedOver(court, names) {
  const handed = court.viewer.handed_over;
  if (!handed) return null;
  const when = handed.at_version ? ` at version ${handed.at_version}` : "";
  const voters = court.table?.replaced_by.find((r) => r.seat === court.viewer.seat)?.voters;
  const who =
    handed.by === "table"
      ? `The table chose you: ${voters?.length ? voters.map((s) => names.seat(s)).join(", ") : "the other seats"} voted to hand this seat to your link${when}, its player having gone`
      : `The host handed this seat to your link${when}`;
  return h(
    "p",
    { class: "notice info", id: "handed-over", "data-by": handed.by },
    `${who}: you see everything from then on, but not what the seat held sealed before (its markers, its bid, its whispers) until the reveal shows them to everyone.`,
  );
}

export function renderSeats(court, names, ctx) {
  // A host who gave his own seat a new link is no host on this tab any more: the link stays.
  const kept = court.viewer.host ? [] : [...handed.keys()].map((seat) => handedLink(seat, ctx));
  return [
    claimForm(court, names, ctx),
    handedOver(court, names),
    ownSeat(court, names, ctx),
    hostPanel(court, names, ctx),
    votePanel(court, ctx),
    kept,
  ];
}
