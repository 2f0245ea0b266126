// The court page: connects to the live court and draws the table and the panels from each
// court view the server renders for this viewer: whole in the welcome, then changed by the
// JSON Patch each push carries. It keeps no secret but the viewer's own.
import { applyPatch } from "/vendor/fast-json-patch/core.mjs";
import { call } from "../lib/api.js";
import { Clock } from "../lib/countdown.js";
// This device's key for the viewer's seat or role, and the signing of what the page sends.
import { Device } from "../lib/device.js";
import { confirmed, errorText, fill, h, say, stillShown } from "../lib/dom.js";
import { connectCourt } from "../lib/live.js";
import { morph } from "../lib/morph.js";
import { Names } from "../lib/names.js";
// Being told it is your turn (title, icon, tone, notifications).
import { TurnSignals } from "../lib/notify.js";
import {
  adoptInvite,
  adoptKeptSeat,
  adoptLinkToken,
  forgetSeat,
  tokenFor,
} from "../lib/seat_store.js";
import {
  EVERYTHING,
  NAMES,
  PRESENCE,
  RECEIPT,
  REVEAL,
  redraws,
  TURN,
  touched,
} from "../lib/sections.js";
// The page as a witness of the record it was shown.
import { showMismatch, Witness } from "../lib/witness.js";
import { ELECTION_READS, keepReceipt, renderElection } from "../panels/election.js";
// How an ended game ended, at the top of the page; "Round 3 of 8" with a last round.
import { ENDING_READS, renderEnding, roundLabel } from "../panels/ending.js";
import { Feed } from "../panels/feed.js";
import { GAME_NAME_READS, showGameName } from "../panels/gamename.js";
import { HOST_READS, renderHost } from "../panels/host.js";
// The throne room and the compact House cards.
import { HOUSES_READS, renderHouses } from "../panels/houses.js";
// The realm's map, where the host records villages.
import { MAP_READS, RealmMap } from "../panels/map.js";
import { MOVES_READS, renderMoves } from "../panels/moves.js";
// The connection line and the host's webhook form, following the viewer's role.
import { ROLE_READS, RoleParts } from "../panels/role.js";
import { renderSeating, SEATING_READS } from "../panels/seating.js";
import {
  renderSpectators,
  renderSummary,
  SPECTATORS_READS,
  SUMMARY_READS,
} from "../panels/table.js";
// What the table decides together: replacing a player gone, ending the game, corrections.
import { renderTableVotes, TABLE_VOTES_READS } from "../panels/table_votes.js";
// Table talk and whispers.
import { TALK_READS, TalkPanel } from "../panels/talk.js";
import { renderThrone, THRONE_READS } from "../panels/throne.js";

const gameId = document.querySelector("script[data-game]").dataset.game;
// A seat's link opened here is a new player's (or a seat handed over): the page keys it.
let freshSeat = /^#token=/.test(window.location.hash);
// A link for a new device carries the key pair the old device made for this one.
let deviceSeed = window.location.hash.match(/^#token=[^&]+&device=([A-Za-z0-9_-]+)$/)?.[1];
await adoptLinkToken(gameId, () =>
  confirmed(
    "This link opens this game with a token of its own, and this tab already plays a seat here. Play with the link's token in this tab instead? Your seat stays yours, on this device if it remembers it.",
    "Play with the link",
  ),
);
adoptInvite(gameId); // a private game's #invite=... from the host's link
adoptKeptSeat(gameId); // a new tab plays the seat this device remembers
const $ = (id) => document.getElementById(id);
const connection = $("connection"),
  notice = $("notice");
const clock = new Clock();
const witness = new Witness(gameId, {
  fetchJson: (path) => call("GET", path),
  onMismatch: (found) => showMismatch($("witness"), witness, found, h),
});
const feed = new Feed($("feed"), 30, (version) => witness.verdict(version));
// The feed draws a record once its player's signature is checked: after the checks queued
// for records up to `version`, those the pushes' own checks left are read and checked.
const feedChecked = (version) => witness.movesThrough(version).then(() => feed.render());
const device = new Device(gameId);
let court = null,
  audience = null,
  presence = null;
const signals = new TurnSignals({
  sound: $("turn-sound"),
  notifications: $("turn-notifications"),
  notificationsState: $("notifications-state"),
  gameId,
});
const role = new RoleParts({
  connection,
  notifyPanel: $("notify-panel"),
  webhook: {
    panel: $("webhook-settings"),
    form: $("webhook-form"),
    url: $("webhook-url"),
    digest: $("webhook-digest"),
    test: $("webhook-test"),
    remove: $("webhook-remove"),
    status: $("webhook-status"),
  },
  gameId,
  token: () => tokenFor(gameId),
});
const realmMap = new RealmMap(document.getElementById("map-panel"), {
  redraw: () => draw(),
  send: (...args) => ctx.send(...args),
});
const talk = new TalkPanel($("talk-panel"), {
  gameId,
  send: (message, payload) => live.send(message, payload),
  witness,
});

// The notice line: a success or an info clears itself after a few seconds (or at the next
// action, which writes over it); an error stays until the next action, and one caused by
// being offline goes once the page is connected again.
const NOTICE_MS = 6000;
let noticeTimer = null,
  noticeOffline = false;
function tell(message, kind = "info", code = null) {
  clearTimeout(noticeTimer);
  say(notice, message, kind);
  noticeOffline = code === "offline";
  if (kind === "success" || kind === "info")
    noticeTimer = setTimeout(() => say(notice, null), NOTICE_MS);
}

// Resolves with the ack once the page drew the version it answers (or after 3 s): the first
// key's record is drawn before the move that follows it is told.
async function applied(ack) {
  for (let waited = 0; waited < 3000; waited += 50) {
    if (court && awaiting === null && court.game.version >= ack.version) return ack;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return ack;
}

const ctx = {
  gameId,
  reveal: null,
  clock,
  presence: () => presence,
  notify: (message, kind = "info") => tell(message, kind),
  reconnect: () => live.reconnect(),
  redraw: () => draw(),
  newDeviceLink: (token) => device.linkForAnotherDevice(court, ctx.send, token),
  ownKeyId: async () => (await device.standing(court))?.keyId ?? null,
  // `where`: a status line next to the form that sent it, told the outcome too.
  // `unsigned`: the holder's first key, which his token alone vouches for.
  async send(message, payload, where = null, { unsigned = false } = {}) {
    tell("Sending…", "pending");
    let body = null;
    try {
      const quiet = (m, p) => live.send(m, p).then(applied);
      body = unsigned ? payload : await device.prepared(court, message, payload, quiet);
      const ack = await live.send(message, body);
      if (message === "join") freshSeat = true;
      if (ack.receipt && message === "place_ballot") keepReceipt(gameId, court, ack.receipt);
      if (message === "place_bid") {
        const r = ack.receipt;
        tell(
          `Your sealed bid of ${r.amount} Gold Dragons is placed. Receipt: record ${r.version}, commitment ${r.commitment}, salt ${r.salt}.`,
          "success",
        );
        return ack;
      }
      tell(ack.receipt ? "Done. Your receipt is below." : "Done.", "success");
      if (where) say(stillShown(where), "Recorded.", "success");
      if (ack.receipt) draw(new Set([RECEIPT]));
      return ack;
    } catch (error) {
      // A signed move the server never answered may have been withheld: the feed keeps it
      // until its record arrives.
      const nonce = body?.signed?.nonce;
      if (nonce && error.code === "timeout")
        feed.sentNotRecorded(nonce, message.replaceAll("_", " "));
      tell(errorText(error), "error", error.code);
      if (where) say(stillShown(where), errorText(error), "error");
      return null;
    }
  },
};

// The panels of the page, each with the sections of the court view it reads: a push redraws
// only those whose sections it changed; the welcome, and a panel that asks, redraw every one.
const playing = () => court.game.status === "playing";
const onlyWhilePlaying = (id, render) => (names) => {
  if (playing()) morph($(id), (el) => render(el, court, names, ctx));
  else fill($(id)); // once the game is over no move is left: the banner says how it ended
};
const PANELS = [
  {
    reads: [...GAME_NAME_READS, ...TURN, ...NAMES],
    draw() {
      const { status } = court.game;
      showGameName(
        court,
        status === "lobby" ? "Lobby" : status === "ended" ? "Over" : roundLabel(court.game),
      );
      signals.update(court); // after the title: it marks the title the page just set
    },
  },
  { reads: ENDING_READS, draw: (names) => renderEnding($("ending"), court, names) },
  { reads: ROLE_READS, draw: () => role.draw(court) },
  { reads: SUMMARY_READS, draw: (names) => renderSummary($("summary"), court, names, clock) },
  { reads: THRONE_READS, draw: (names) => renderThrone($("throne"), court, names) },
  {
    reads: HOUSES_READS,
    draw: (names) => renderHouses($("houses"), court, names, presence, clock),
  },
  { reads: SPECTATORS_READS, draw: () => renderSpectators($("spectators"), presence) },
  {
    reads: SEATING_READS,
    draw: (names) => morph($("seating"), (el) => renderSeating(el, court, names, ctx)),
  },
  { reads: TALK_READS, draw: (names) => talk.draw(court, names) },
  {
    reads: MAP_READS,
    draw(names) {
      const lobby = court.game.status === "lobby";
      $("map-panel").hidden = lobby;
      if (!lobby) morph($("map-panel"), (el) => realmMap.draw(court, names, el));
    },
  },
  {
    reads: ["game"],
    draw: () => {
      $("play").hidden = !playing();
    },
  },
  { reads: ELECTION_READS, draw: onlyWhilePlaying("election-panel", renderElection) },
  { reads: MOVES_READS, draw: onlyWhilePlaying("moves-panel", renderMoves) },
  { reads: HOST_READS, draw: onlyWhilePlaying("host-panel", renderHost) },
  { reads: TABLE_VOTES_READS, draw: onlyWhilePlaying("table-votes-panel", renderTableVotes) },
];

// The sections changed since the panels were last drawn (EVERYTHING: every panel is due).
let due = new Set();
function changed(sections) {
  if (sections === EVERYTHING) due = EVERYTHING;
  else if (due !== EVERYTHING) for (const section of sections) due.add(section);
}

function draw(sections = EVERYTHING) {
  changed(sections);
  if (!court) return;
  const drawn = due;
  due = new Set();
  const names = new Names(court);
  for (const panel of PANELS) if (redraws(panel.reads, drawn)) panel.draw(names);
}

// While the socket is down nobody's presence is known: the badges say so until it is back.
function lost(message) {
  say(connection, message, "warning");
  if (presence && !presence.stale) {
    presence = { ...presence, stale: true };
    draw(new Set([PRESENCE]));
  }
}

// The server turned the connection down: a game that does not exist, a token it no longer
// takes (the page watches as a spectator instead), or another reason in its own words.
function refused(error) {
  if (error?.code === "unknown_game") {
    fill(
      connection,
      h("strong", {}, "There is no such game: "),
      `no game has the id ${gameId}. Check the link, or `,
      h("a", { href: "/" }, "go to the front page"),
      " to find or create a game.",
    );
    connection.className = "notice error";
    return;
  }
  say(connection, `The server refused the connection: ${errorText(error)}`, "error");
  if (error?.code === "bad_token") {
    forgetSeat(gameId);
    live.reconnect();
  }
}

// The court view after a push (docs/protocol.md, "Court views in pushes"): the push changes the
// sections every audience sees alike, from the version this page holds (`from`; null: whatever
// it holds); its audience's own sections follow in an `own` part when `view.own` names it, and
// the page draws once they are in. A change from a version the page does not hold, a part it
// missed, or a part for another audience (the token now stands for something else) is not
// applied: the page connects again and is welcomed anew.
let awaiting = null; // the version whose own part this page waits for
function follow(push) {
  const { view, checkpoint, version } = push;
  if (!view || !court || court.game.version >= version) return;
  try {
    if (awaiting !== null) throw new Error("the own part of the push before was missed");
    if (view.from !== null && view.from !== court.game.version)
      throw new Error("the push changes a view this page does not hold");
    applyPatch(court, view.patch, true, true);
  } catch {
    lose();
    return;
  }
  changed(touched(view.patch));
  if (view.own.includes(audience)) awaiting = version;
  court.checkpoint = checkpoint;
  witness.see(checkpoint, push.records);
}

// The page's own part of a push: its audience's sections, and the records as its viewer may
// see them (his own private parts) when they differ from the push's.
function followOwn(part) {
  if (!court || (awaiting === null && court.game.version > part.version)) return;
  if (part.audience !== audience || part.version !== awaiting) {
    lose();
    return;
  }
  awaiting = null;
  if (part.records) {
    feed.add(part.records);
    if (part.records.length) feedChecked(part.records.at(-1).version);
  }
  try {
    applyPatch(court, part.patch, true, true);
  } catch {
    lose();
    return;
  }
  changed(touched(part.patch));
}

// The view this page holds can no longer be kept from the pushes: it is welcomed anew.
function lose() {
  court = null;
  due = EVERYTHING;
  awaiting = null;
  live.reconnect();
}

const live = connectCourt({
  gameId,
  token: () => tokenFor(gameId),
  async onWelcome(payload, first) {
    court = payload.court;
    audience = payload.audience;
    awaiting = null;
    witness.see(court.checkpoint);
    if (noticeOffline) tell(null);
    role.connected(court);
    draw();
    // The first key goes quietly; a seat taken back from the bot is told like any move.
    const fresh = freshSeat && Boolean(court.viewer.holder);
    if (fresh) freshSeat = false;
    const seed = court.viewer.holder ? deviceSeed : null;
    if (seed) deviceSeed = null;
    (seed ? device.adopt(court, seed) : Promise.resolve())
      .then(() =>
        device.welcomed(
          court,
          (message, payload, options) =>
            options?.unsigned ? live.send(message, payload) : ctx.send(message, payload),
          fresh,
        ),
      )
      .catch((error) => tell(errorText(error), "error", error.code));
    if (first) {
      const records = await live
        .recordsAfter(Math.max(0, payload.version - feed.limit))
        .catch(() => null);
      if (records) feed.add(records);
      ctx.reveal = feed.lastOf("BallotsRevealed");
      draw(new Set([REVEAL]));
      // The whole chain, from the last version this device checked, while the player plays;
      // then the records the feed shows, recomputed against it.
      setTimeout(() => {
        witness.checkInBackground();
        if (records) witness.checkShown(records);
      }, 2000);
      // Every move shown, against the keys its player's devices registered: the whole log
      // from version 1, in pages, the feed marked as each page is checked.
      witness.checkMoves(() => feed.render());
    }
  },
  onEvents(records, _version, push) {
    feed.add(records);
    // Records pushed with a view chain on from the kept head (follow); those caught up
    // otherwise are recomputed against the chain this device holds.
    if (!push?.view) witness.checkShown(records);
    const reveal = records.filter((r) => r.type === "BallotsRevealed").pop();
    if (reveal) {
      ctx.reveal = { ...reveal, live: true, arrived: performance.now() };
      changed(new Set([REVEAL]));
    }
    if (push) follow(push);
    if (records.length) feedChecked(records.at(-1).version);
    if (awaiting === null) draw(new Set());
  },
  onOwn(part) {
    followOwn(part);
    draw(new Set());
  },
  onPresence(payload) {
    presence = payload;
    clock.learn(payload.server_time);
    draw(new Set([PRESENCE]));
  },
  onTalk: (payload) => talk.backlog(payload),
  talkAfter: () => talk.after,
  onStatus(status, error) {
    if (status === "reconnecting")
      lost("Connection lost; reconnecting… (the page catches up by itself)");
    if (status === "unreachable")
      lost(
        "The server cannot be reached right now; the page keeps trying and catches up by itself.",
      );
    if (status === "refused") refused(error);
  },
  // This tab's token no longer holds its seat (handed to a new link, removed): forget it here
  // and on this device, and watch as a spectator.
  onSeatEnded(payload) {
    forgetSeat(gameId);
    say(notice, payload.message, "warning");
    live.reconnect();
  },
});

$("history-link").href = `/games/${gameId}/history`;
fill($("game-id"), h("code", {}, gameId));
