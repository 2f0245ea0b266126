// The court table's summary: round, phase and step, whose turn it is, the deadline; who is
// connected and watching. The House cards are in houses.js, the throne room in throne.js.

import { countdown } from "../lib/countdown.js";
import { fill, h } from "../lib/dom.js";
import { NAMES, PRESENCE, TURN } from "../lib/sections.js";
import { runningClocks } from "./clocks.js";
import { roundOf } from "./ending.js";

// The seats the court is waiting for now, and what for: `what` as said to the player ("answer the
// marriage proposal"), `does` as said of someone else ("answers the marriage proposal").
function wait(seats, what, does, deadline) {
  return { seats, what, does, deadline };
}

function waitingOnTitle(pending, names) {
  const offer = names
    ? ` ${names.title(pending.title)} for ${names.noble(pending.noble)}`
    : " a title";
  return pending.kind === "acceptance"
    ? wait(
        [pending.seat],
        `accept or refuse${offer}`,
        `accepts or refuses${offer}`,
        pending.deadline,
      )
    : wait(
        [pending.seat],
        "pass on or return a title (one too many)",
        "passes on or returns a title (one too many)",
        pending.deadline,
      );
}

export function waitingOn(court, names = null) {
  const { pending, decree, election, auction, purchases } = court;
  if (pending) return waitingOnTitle(pending, names);
  if (decree?.proposal)
    return wait(
      [decree.proposal.to_seat],
      "answer the marriage proposal",
      "answers the marriage proposal",
      decree.deadline,
    );
  if (decree && decree.current !== null)
    return wait(
      [decree.current],
      "act in the decree step or pass",
      "acts in the decree step or passes",
      decree.deadline,
    );
  if (election && election.current !== null) {
    return election.stage === "ballot"
      ? wait([election.current], "place your markers", "places markers", election.deadline)
      : wait(
          [election.current],
          "put forward a Lord or pass",
          "puts forward a Lord or passes",
          election.deadline,
        );
  }
  if (auction && auction.winner === null && auction.waiting.length)
    return wait(
      auction.waiting,
      "bid or pass for the council seat",
      "bids or passes for the council seat",
      auction.deadline,
    );
  if (auction && auction.winner !== null)
    return wait(
      [auction.winner],
      "seat a Warden on the council",
      "seats a Warden on the council",
      auction.deadline,
    );
  if (purchases && purchases.current !== null)
    return wait(
      [purchases.current],
      "make your purchases, then say done",
      "makes purchases, then says done",
      purchases.deadline,
    );
  return null;
}

// What the court waits on `seat` for: its turn, or a ransom offered to it, which is
// no one's turn but wants its answer; null for nothing.
export function waitsOn(court, seat) {
  if (seat === null || seat === undefined) return null;
  const waiting = waitingOn(court);
  if (waiting?.seats.includes(seat)) return waiting.what;
  if ((court.offers ?? []).some((o) => o.to_seat === seat)) return "answer the ransom offer";
  return null;
}

// "Your turn: answer the marriage proposal"; "Dan (House Tyrell) answers the marriage
// proposal"; several seats at once (the council seat's sale): "A and B bid or pass ...".
export function turnSentence(waiting, viewerSeat, names) {
  const name = (s) => names.seat(s).replace(" — you", "");
  const others = waiting.seats.filter((s) => s !== viewerSeat).map(name);
  if (waiting.seats.includes(viewerSeat)) {
    return [
      h("strong", {}, "Your turn: "),
      waiting.what,
      others.length ? ` (also waiting: ${others.join(", ")})` : "",
    ];
  }
  if (others.length === 1) return `${others[0]} ${waiting.does}`;
  return `${others.slice(0, -1).join(", ")} and ${others.at(-1)} ${waiting.what.replace("your ", "their ")}`;
}

// The sections of the court view this panel reads (lib/sections.js).
export const SUMMARY_READS = [...TURN, "version", "clocks", "table", ...NAMES];
export const SPECTATORS_READS = [PRESENCE];

// `past`: the court at a past version of the history, with the event that came `next` (none
// at the head): it says what happened next, not whose turn it is now.
export function renderSummary(el, court, names, clock, past = null) {
  const { game } = court;
  const waiting = waitingOn(court, names);
  if (past) return renderPast(el, court, names, waiting, past.next);
  const mine = waiting?.seats.includes(court.viewer.seat);
  fill(
    el,
    h(
      "dl",
      { class: "summary" },
      statusLine(court),
      game.status !== "lobby" && [
        h("dt", {}, "Round"),
        h("dd", { "data-testid": "round" }, roundOf(game)),
      ],
      game.status === "lobby" &&
        game.last_round > 0 && [
          h("dt", {}, "Last round"),
          h("dd", { "data-testid": "last-round" }, `Round ${game.last_round}`),
        ],
      game.status !== "lobby" && [
        h("dt", {}, "Phase"),
        h("dd", { "data-testid": "phase" }, names.phase(game.phase)),
      ],
      // While playing, Step and Deadline keep their rows ("—" when none), so a live update
      // never moves what is below them.
      game.status === "playing" && [
        h("dt", {}, "Step"),
        h("dd", { "data-testid": "step" }, game.step ? names.step(game.step) : "—"),
      ],
      h("dt", {}, "Turn"),
      h(
        "dd",
        { "data-testid": "turn", class: mine ? "your-turn" : "" },
        waiting
          ? turnSentence(waiting, court.viewer.seat, names)
          : game.status === "playing"
            ? "Nobody: the host closes the phase played at the table"
            : "—",
      ),
      game.status === "playing" && [
        h("dt", {}, "Deadline"),
        h(
          "dd",
          { "data-testid": "deadline" },
          waiting?.deadline ? countdown(waiting.deadline, clock) : "—",
        ),
      ],
      runningClocks(court, names, clock),
      h("dt", {}, "Version"),
      h("dd", { "data-testid": "version" }, String(game.version)),
    ),
  );
}

// The game's status, as the summary and the past's summary both open.
function statusLine(court) {
  const { game } = court;
  return [
    h("dt", {}, "Status"),
    h(
      "dd",
      { "data-testid": "status" },
      game.status === "lobby"
        ? `In the lobby: ${court.seats.length} of ${game.players} seats taken`
        : game.status,
    ),
  ];
}

function renderPast(el, court, names, waiting, next) {
  const { game } = court;
  fill(
    el,
    h(
      "dl",
      { class: "summary" },
      statusLine(court),
      game.round > 0 && [h("dt", {}, "Round"), h("dd", { "data-testid": "round" }, roundOf(game))],
      game.phase && [
        h("dt", {}, "Phase"),
        h("dd", { "data-testid": "phase" }, names.phase(game.phase)),
      ],
      game.step && [h("dt", {}, "Step"), h("dd", { "data-testid": "step" }, names.step(game.step))],
      waiting && [
        h("dt", {}, "Waiting on"),
        h("dd", { "data-testid": "turn" }, turnSentence(waiting, null, names)),
      ],
      h("dt", {}, "Next"),
      h("dd", { "data-testid": "next" }, next ?? "Nothing yet: this is the latest event."),
      h("dt", {}, "Version"),
      h("dd", { "data-testid": "version" }, String(game.version)),
    ),
  );
}

// Whether a seat's player is connected, in words (the House cards show it).
export function presenceBadge(seat, presence, court) {
  if (!presence) return null;
  // Presence as last heard is no news while this page is offline: its own seat is offline then.
  if (presence.stale) {
    const own = seat === court.viewer.seat;
    return h(
      "span",
      { class: `presence ${own ? "offline" : "unknown"}`, "data-testid": `presence-${seat}` },
      own ? "○ not connected (this page is offline)" : "? unknown while this page is offline",
    );
  }
  const online = presence.seats.includes(seat);
  return h(
    "span",
    { class: `presence ${online ? "online" : "offline"}`, "data-testid": `presence-${seat}` },
    online ? "● connected" : "○ not connected",
  );
}

export function renderSpectators(el, presence) {
  if (!presence) {
    fill(el);
    return;
  }
  if (presence.stale) {
    fill(el, "Who is watching is unknown while this page is offline.");
    return;
  }
  fill(
    el,
    `Watching: ${presence.spectators} spectator${presence.spectators === 1 ? "" : "s"}`,
    presence.host ? " · the host is connected" : "",
    presence.game_master ? " · the game master is connected" : "",
  );
}
