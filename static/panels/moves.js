// The decree and action panel: exactly the moves the server lists for the viewer
// (`court.moves`, from rules.legal_commands), each with its choices as dependent selects.

import { fill, h, listen, onPage } from "../lib/dom.js";
import { moveLabel } from "../lib/labels.js";
import { capital } from "../lib/names.js";
import { NAMES, TURN } from "../lib/sections.js";
import { doneMark } from "./clocks.js";

const FIELDS = {
  noble: "Noble",
  to: "to",
  title: "Title",
  village: "Village",
  offer: "Offer",
  accept: "Answer",
  convert: "Convert",
  hand_converts: "The Hand converts too",
  burn: "Burn",
  amount: "Gold Dragons",
};
// Handled by other panels: the election, the lobby and the host's.
const ELSEWHERE = new Set([
  "stand",
  "place_ballot",
  "join",
  "leave",
  "start",
  "advance_phase",
  "close_table_phases",
  // What the table decides together (a vote to end the game, a correction's answer) asks
  // first and belongs to no turn: never a one-click move of this panel.
  "vote_end",
  "answer_correction",
  "withdraw_correction",
]);

function valueLabel(field, value, names, court) {
  if (typeof value === "boolean") {
    if (field === "accept") return value ? "Accept" : "Decline";
    return value ? "Yes" : "No";
  }
  if (value === null) return field === "to" ? "nobody: return it to the board" : "nobody";
  switch (field) {
    case "noble":
    case "to":
    case "burn":
    case "captive": {
      const house = names.houseOfNoble(value);
      return `${names.noble(value)} (${names.house(house)})`;
    }
    case "title":
      return names.title(value);
    case "village":
      return names.village(value);
    case "offer": {
      const offer = court.offers.find((o) => o.id === value);
      return offer
        ? `Offer ${value}: ${[offer.gold ? `${offer.gold} GD` : "", ...offer.captives.map((c) => names.noble(c))].filter(Boolean).join(" and ")} for ${names.noble(offer.captive)}`
        : `Offer ${value}`;
    }
    default:
      return String(value);
  }
}

// The offer a title answer is about names the title and the Noble: "Accept Warden of the North
// for Robb Stark".
function labelOf(message, court, names) {
  const { pending } = court;
  if (pending && (message === "accept_title" || message === "refuse_title")) {
    return `${message === "accept_title" ? "Accept" : "Refuse"} ${names.title(pending.title)} for ${names.noble(pending.noble)}`;
  }
  return moveLabel(message);
}

// One form per kind of move; each select offers only values that some listed move has,
// given the choices made in the selects before it.
function moveForm(message, variants, ctx, names, court) {
  const fields = Object.keys(variants[0]);
  const label = labelOf(message, court, names);
  if (!fields.length) {
    return h(
      "div",
      { class: "move" },
      h(
        "button",
        {
          type: "button",
          id: `move-${message}`,
          "data-message": message,
          onclick: () => ctx.send(message, {}),
        },
        label,
      ),
    );
  }
  if (message === "place_bid") return bidForm(variants, ctx);
  if (message === "offer_ransom") return ransomForm(variants, ctx, names, court);
  const selects = fields.map((field) => h("select", { name: field, id: `${message}-${field}` }));
  const refill = (from) => {
    for (let i = from; i < fields.length; i += 1) {
      const chosen = fields
        .slice(0, i)
        .map((f, j) => [f, JSON.parse(onPage(selects[j]).value || "null")]);
      const fitting = variants.filter((v) => chosen.every(([f, value]) => v[f] === value));
      const values = [
        ...new Map(fitting.map((v) => [JSON.stringify(v[fields[i]]), v[fields[i]]])).entries(),
      ];
      fill(
        onPage(selects[i]),
        values.map(([json, value]) =>
          h("option", { value: json }, valueLabel(fields[i], value, names, court)),
        ),
      );
    }
  };
  selects.forEach((select, i) => {
    listen(select, "change", () => refill(i + 1));
  });
  refill(0);
  const submit = (event) => {
    event.preventDefault();
    const payload = Object.fromEntries(
      fields.map((f, i) => [f, JSON.parse(onPage(selects[i]).value)]),
    );
    ctx.send(message, payload);
  };
  return h(
    "form",
    { class: "move", "data-message": message, onsubmit: submit },
    h(
      "fieldset",
      {},
      h("legend", {}, label),
      fields.map((field, i) =>
        h("label", { for: selects[i].id }, `${FIELDS[field] ?? field} `, selects[i]),
      ),
      h("button", { type: "submit", id: `send-${message}` }, "Send"),
    ),
  );
}

function bidForm(variants, ctx) {
  const most = Math.max(...variants.map((v) => v.amount));
  const input = h("input", {
    type: "number",
    id: "bid-amount",
    name: "amount",
    min: 1,
    max: most,
    value: 1,
    required: true,
  });
  return h(
    "form",
    {
      class: "move",
      "data-message": "place_bid",
      onsubmit: (e) => {
        e.preventDefault();
        ctx.send("place_bid", { amount: Number(onPage(input).value) });
      },
    },
    h(
      "fieldset",
      {},
      h("legend", {}, moveLabel("place_bid")),
      h(
        "p",
        {},
        `Sealed: nobody sees the amount before every bidder has bid or passed. At most ${most} GD.`,
      ),
      h("label", { for: "bid-amount" }, "Amount ", input),
      h("button", { type: "submit" }, "Bid"),
    ),
  );
}

// R-8.2: a ransom for one of your captive Nobles: Gold Dragons, up to your treasury, and any of
// the captives you hold, from what the server lists.
function ransomForm(variants, ctx, names, court) {
  const captives = [...new Set(variants.map((v) => v.captive))];
  const held = [...new Set(variants.flatMap((v) => v.captives))];
  const most = Math.max(...variants.map((v) => v.gold));
  const captive = h(
    "select",
    { id: "offer_ransom-captive", name: "captive" },
    captives.map((c) => h("option", { value: c }, valueLabel("captive", c, names, court))),
  );
  const gold = h("input", {
    type: "number",
    id: "ransom-gold",
    name: "gold",
    min: 0,
    max: most,
    value: 0,
    required: true,
  });
  const boxes = held.map((c) =>
    h("input", { type: "checkbox", name: "captives", value: c, id: `ransom-captive-${c}` }),
  );
  const submit = (event) => {
    event.preventDefault();
    const given = boxes
      .map(onPage)
      .filter((box) => box.checked)
      .map((box) => box.value);
    ctx.send("offer_ransom", {
      captive: onPage(captive).value,
      gold: Number(onPage(gold).value),
      captives: given,
    });
  };
  return h(
    "form",
    { class: "move", "data-message": "offer_ransom", onsubmit: submit },
    h(
      "fieldset",
      {},
      h("legend", {}, moveLabel("offer_ransom")),
      h("label", { for: captive.id }, "For ", captive),
      h("label", { for: gold.id }, `Gold Dragons (at most ${most}) `, gold),
      boxes.map((box, i) =>
        h("label", { for: box.id }, box, ` ${valueLabel("captive", held[i], names, court)}`),
      ),
      h("button", { type: "submit", id: "send-offer_ransom" }, "Offer"),
    ),
  );
}

function decreeHeading(court, names) {
  const { decree } = court;
  if (!decree) return null;
  const proposal = decree.proposal;
  return h(
    "div",
    { class: "decree" },
    h(
      "p",
      {},
      h("strong", { "data-testid": "decree-step" }, names.step(court.game.step)),
      // While a proposal waits, the turn is the answering seat's (R-5.2), not the proposer's.
      decree.current !== null
        ? ` — turn of ${names.seat(proposal ? proposal.to_seat : decree.current)}`
        : "",
    ),
    h(
      "p",
      { class: "muted" },
      `Turn order: ${decree.order.map((s, i) => `${names.seat(s)}${i < decree.acted.length ? doneMark(court, s, "decree") : ""}`).join(", ")}`,
    ),
    proposal &&
      h(
        "p",
        {},
        `${capital(names.does(proposal.seat, "proposes", "propose"))} ${names.noble(proposal.noble)} to marry ${names.noble(proposal.to_noble)}; ${names.does(proposal.to_seat, "answers", "answer")}.`,
      ),
  );
}

// The sale of the fourth council seat: who bid, passed or is awaited; never an amount.
function auctionHeading(court, names) {
  const { auction } = court;
  if (!auction) return null;
  const list = (seats) => seats.map((s) => names.seat(s)).join(", ") || "nobody";
  return h(
    "div",
    { class: "decree", "data-testid": "auction" },
    h("p", {}, h("strong", {}, "Sale of the fourth Small Council seat"), " (sealed bids)"),
    h(
      "p",
      { class: "muted" },
      `Bid: ${list(auction.bid)} · passed: ${list(auction.passed)} · awaited: ${list(auction.waiting)}`,
    ),
    auction.winner !== null &&
      h(
        "p",
        {},
        `${capital(names.does(auction.winner, "bought the seat and chooses", "bought the seat and choose"))} a Warden.`,
      ),
  );
}

// Phase 4 after the sale: each player's purchases in turn order (R-4.1).
function purchasesHeading(court, names) {
  const { purchases } = court;
  if (!purchases) return null;
  return h(
    "div",
    { class: "decree", "data-testid": "purchases" },
    h(
      "p",
      {},
      h("strong", {}, "Purchases at court"),
      purchases.current !== null ? ` — turn of ${names.seat(purchases.current)}` : "",
    ),
    h(
      "p",
      { class: "muted" },
      `Turn order: ${purchases.order.map((s, i) => `${names.seat(s)}${i < purchases.done.length ? doneMark(court, s, "purchase") : ""}`).join(", ")}`,
    ),
  );
}

function offersList(court, names) {
  if (!court.offers.length) return null;
  return h(
    "div",
    { class: "decree" },
    h("p", {}, h("strong", {}, "Open ransom offers")),
    h(
      "ul",
      {},
      court.offers.map((o) =>
        h(
          "li",
          {},
          `${names.seat(o.seat)} to ${names.seat(o.to_seat)}: ${valueLabel("offer", o.id, names, court)}`,
        ),
      ),
    ),
  );
}

// The sections of the court view this panel reads (lib/sections.js).
export const MOVES_READS = [...TURN, "moves", "clocks", ...NAMES];

export function renderMoves(el, court, names, ctx) {
  const electionTurn = court.election && court.election.current === court.viewer.seat;
  const moves = court.moves.filter(
    (m) => !ELSEWHERE.has(m.message) && !(m.message === "pass" && electionTurn),
  );
  const groups = new Map();
  for (const move of moves) {
    if (!groups.has(move.message)) groups.set(move.message, []);
    groups.get(move.message).push(move.payload);
  }
  fill(
    el,
    h("h2", { id: "moves-heading" }, "Decrees and actions"),
    decreeHeading(court, names),
    auctionHeading(court, names),
    purchasesHeading(court, names),
    offersList(court, names),
    groups.size
      ? [...groups].map(([message, variants]) => moveForm(message, variants, ctx, names, court))
      : h(
          "p",
          { class: "muted", "data-testid": "no-moves" },
          court.viewer.role === "game_master"
            ? "The game master records facts in his own panel."
            : court.viewer.seat === null
              ? "Spectators watch; they make no moves."
              : "Nothing for you to do right now.",
        ),
  );
}
