// The court table's summary: round, phase and step, whose turn it is, the deadline; who is
// connected and watching. The House cards are in houses.js, the throne room in throne.js.
import { h, fill } from "./dom.js";
import { countdown } from "./countdown.js";
import { runningClocks } from "./clocks.js";

// The seats the court is waiting for now, and what for.
export function waitingOn(court) {
  const { pending, decree, election, auction, purchases } = court;
  if (pending) return { seats: [pending.seat], what: pending.kind === "acceptance" ? "to accept or refuse a title" : "to pass on or return a title", deadline: pending.deadline };
  if (decree?.proposal) return { seats: [decree.proposal.to_seat], what: "to answer a marriage proposal", deadline: decree.deadline };
  if (decree && decree.current !== null) return { seats: [decree.current], what: "in the decree step", deadline: decree.deadline };
  if (election && election.current !== null) return { seats: [election.current], what: election.stage === "ballot" ? "to place markers" : "to put forward a Lord or pass", deadline: election.deadline };
  if (auction && auction.winner === null && auction.waiting.length) return { seats: auction.waiting, what: "to bid or pass for the council seat", deadline: auction.deadline };
  if (auction && auction.winner !== null) return { seats: [auction.winner], what: "to seat a Warden on the council", deadline: auction.deadline };
  if (purchases && purchases.current !== null) return { seats: [purchases.current], what: "to make purchases, then say done", deadline: purchases.deadline };
  return null;
}

export function renderSummary(el, court, names, clock) {
  const { game } = court;
  const waiting = waitingOn(court);
  const mine = waiting && waiting.seats.includes(court.viewer.seat);
  fill(el,
    h("dl", { class: "summary" },
      h("dt", {}, "Status"), h("dd", { "data-testid": "status" }, game.status === "lobby" ? `In the lobby: ${court.seats.length} of ${game.players} seats taken` : game.status),
      game.status !== "lobby" && [h("dt", {}, "Round"), h("dd", { "data-testid": "round" }, String(game.round))],
      game.status !== "lobby" && [h("dt", {}, "Phase"), h("dd", { "data-testid": "phase" }, names.phase(game.phase))],
      game.step && [h("dt", {}, "Step"), h("dd", { "data-testid": "step" }, names.step(game.step))],
      h("dt", {}, "Turn"),
      h("dd", { "data-testid": "turn", class: mine ? "your-turn" : "" },
        waiting ? [mine ? h("strong", {}, "Your turn: ") : null, `${waiting.seats.map((s) => names.seat(s)).join(", ")} ${waiting.what}`]
          : game.status === "playing" ? "Nobody: the host closes the phase played at the table" : "—"),
      waiting?.deadline && [h("dt", {}, "Deadline"), h("dd", {}, countdown(waiting.deadline, clock))],
      runningClocks(court, names, clock),
      h("dt", {}, "Version"), h("dd", { "data-testid": "version" }, String(game.version)),
    ));
}

// Whether a seat's player is connected, in words (the House cards show it).
export function presenceBadge(seat, presence) {
  if (!presence) return null;
  const online = presence.seats.includes(seat);
  return h("span", { class: `presence ${online ? "online" : "offline"}`, "data-testid": `presence-${seat}` },
    online ? "● connected" : "○ not connected");
}

export function renderSpectators(el, presence) {
  if (!presence) { fill(el); return; }
  fill(el, `Watching: ${presence.spectators} spectator${presence.spectators === 1 ? "" : "s"}`,
    presence.host ? " · the host is connected" : "",
    presence.game_master ? " · the game master is connected" : "");
}
