// The court table: round, phase and step, whose turn it is, the deadline, and every House with
// its player, connection, treasury, villages per region and Nobles.
import { h, fill, swatch } from "./dom.js";
import { countdown } from "./countdown.js";
import { playerClocks, runningClocks } from "./clocks.js";

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

// `past`: the court at a past version of the history, with the event that came `next` (none
// at the head): it says what happened next, not whose turn it is now.
export function renderSummary(el, court, names, clock, past = null) {
  const { game } = court;
  const waiting = waitingOn(court);
  if (past) return renderPast(el, court, names, waiting, past.next);
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

function renderPast(el, court, names, waiting, next) {
  const { game } = court;
  fill(el,
    h("dl", { class: "summary" },
      h("dt", {}, "Status"), h("dd", { "data-testid": "status" }, game.status === "lobby" ? `In the lobby: ${court.seats.length} of ${game.players} seats taken` : game.status),
      game.round > 0 && [h("dt", {}, "Round"), h("dd", { "data-testid": "round" }, String(game.round))],
      game.phase && [h("dt", {}, "Phase"), h("dd", { "data-testid": "phase" }, names.phase(game.phase))],
      game.step && [h("dt", {}, "Step"), h("dd", { "data-testid": "step" }, names.step(game.step))],
      waiting && [h("dt", {}, "Waiting on"), h("dd", { "data-testid": "turn" }, `${waiting.seats.map((s) => names.seat(s)).join(", ")}, ${waiting.what}`)],
      h("dt", {}, "Next"), h("dd", { "data-testid": "next" }, next ?? "Nothing yet: this is the latest event."),
      h("dt", {}, "Version"), h("dd", { "data-testid": "version" }, String(game.version))));
}

function presenceBadge(seat, presence) {
  if (!presence) return null;
  const online = presence.seats.includes(seat);
  return h("span", { class: `presence ${online ? "online" : "offline"}`, "data-testid": `presence-${seat}` },
    online ? "● connected" : "○ not connected");
}

function nobleStatus(noble, names) {
  const parts = [];
  if (noble.status === "captive") parts.push(`captive of ${names.house(noble.captor)}`);
  else parts.push(noble.status.replaceAll("_", " "));
  if (noble.outlaw) parts.push("Outlaw");
  if (noble.spouse) parts.push(`married to ${names.noble(noble.spouse)}`);
  return parts.join(", ");
}

function nobleRow(noble, names) {
  return h("tr", { class: noble.status === "dead" ? "dead" : "" },
    h("th", { scope: "row" }, noble.name, noble.gender === "lady" ? " (Lady)" : ""),
    h("td", {}, noble.titles.length ? noble.titles.map((t) => names.title(t)).join(", ") : "—"),
    h("td", {}, nobleStatus(noble, names)),
    h("td", {}, noble.attributes.length ? noble.attributes.map((a) => a.replaceAll("_", " ")).join(", ") : "—"));
}

function villagesHeld(house, court, names) {
  const rows = court.regions
    .map((r) => [r.name, r.villages.filter((v) => v.controller === house.id)])
    .filter(([, held]) => held.length);
  if (!rows.length) return h("p", { class: "muted" }, "No villages held.");
  return h("ul", { class: "villages" }, rows.map(([region, held]) =>
    h("li", {}, h("strong", {}, `${region}: `), held.map((v) => `${v.name}${v.sept ? " (Sept)" : ""}`).join(", "))));
}

function houseCard(house, court, names, presence, clock) {
  const seat = court.seats.find((s) => s.house === house.id);
  const [c1 = "#6b7280", c2 = c1] = house.colours;
  return h("article", { class: `house${seat && seat.seat === court.viewer.seat ? " mine" : ""}`, style: { "--c1": c1, "--c2": c2 }, "data-house": house.id, "aria-label": house.name },
    h("header", {},
      h("h3", {}, swatch(house.colours), " ", house.name),
      h("p", { class: "words" }, `“${house.words}”`),
      h("p", {}, seat ? [`Seat ${seat.seat + 1}: ${seat.player_name}`, seat.host ? " · host" : "", seat.seat === court.viewer.seat ? " · you" : "", " ", presenceBadge(seat.seat, presence)] : "No player"),
      h("p", { class: "treasury" }, h("strong", {}, "Treasury: "), house.treasury === null ? "—" : `${house.treasury} Gold Dragons`),
      seat && playerClocks(court, seat.seat, clock)),
    villagesHeld(house, court, names),
    h("div", { class: "scroll" },
      h("table", { class: "nobles" },
        h("caption", { class: "visually-hidden" }, `Nobles of ${house.name}`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Noble"), h("th", { scope: "col" }, "Titles"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, "Attributes"))),
        h("tbody", {}, house.nobles.map((n) => nobleRow(n, names))))));
}

export function renderHouses(el, court, names, presence, clock) {
  const seated = court.houses.filter((house) => house.seat !== null);
  fill(el, seated.length ? seated.map((house) => houseCard(house, court, names, presence, clock))
    : h("p", { class: "muted" }, "No House has a player yet."));
}

export function renderSpectators(el, presence) {
  if (!presence) { fill(el); return; }
  fill(el, `Watching: ${presence.spectators} spectator${presence.spectators === 1 ? "" : "s"}`,
    presence.host ? " · the host is connected" : "",
    presence.game_master ? " · the game master is connected" : "");
}
