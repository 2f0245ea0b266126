// The election on the table (R-7.1): the candidates as cards, each face-down marker drawn on the
// card it lies on as soon as it is placed (its kind only on its owner's page), stand or pass, the
// ballot form, one's own receipt, and the reveal turning the markers over, with the tally and the
// winner offered the title.

import { fill, h, onPage, swatch } from "../lib/dom.js";
import { NAMES, RECEIPT, REVEAL, TURN } from "../lib/sections.js";
import { ranOut } from "./clocks.js";

const receiptKey = (gameId, seat) => `receipt:${gameId}:${seat}`;

// The receipt of the viewer's ballot, kept with the round it was placed in: an election's id
// comes back every round.
export function keepReceipt(gameId, court, receipt) {
  const kept = { ...receipt, round: court.game.round };
  localStorage.setItem(receiptKey(gameId, court.viewer.seat), JSON.stringify(kept));
}

// A receipt this device kept for the seat, shown only beside its own election: the one under
// way, or its reveal on show, in the round it was placed in (the seat may have voted in a
// later election from another device). None from before the host handed the seat to this
// page's link (a device that held the seat before keeps the old player's, who is gone).
function keptReceipt(gameId, court, reveal) {
  const { viewer, election } = court;
  let receipt = null;
  try {
    receipt = JSON.parse(localStorage.getItem(receiptKey(gameId, viewer.seat)) ?? "null");
  } catch {
    return null;
  }
  const since = viewer.handed_over?.at_version ?? 0;
  if (!receipt || receipt.version < since || receipt.round !== court.game.round) return null;
  const shown = election ? election.id : reveal?.data.election;
  return shown === receipt.election ? receipt : null;
}

const KIND = { for: "FOR", decoy: "DECOY" };

function nobleWithHouse(noble, names) {
  const house = names.houseOfNoble(noble);
  return [
    names.noble(noble),
    " ",
    h("span", { class: "house-tag" }, swatch(names.colours(house)), " ", names.house(house)),
  ];
}

// -- markers as tokens ------------------------------------------------------------------------

// A marker as a token in its seat's House colours: face down (kind unknown to this page), or
// face up with its kind (the viewer's own before the reveal; everyone's after it).
// `turning`: the delay of its turn-over animation, for a reveal seen live.
function token(seat, names, kind = null, turning = null) {
  const [c1 = "#6b7280", c2 = c1] = names.colours(names.houseOfSeat(seat));
  const who = names.seat(seat).replace(" — you", "");
  const face = kind ? `${KIND[kind]} marker of ${who}` : `a face-down marker of ${who}`;
  const style = { "--c1": c1, "--c2": c2, ...(turning ? { "--turn-delay": turning } : {}) };
  return h(
    "span",
    {
      class: `token ${kind ? `face-up ${kind}` : "face-down"}${turning ? " turning" : ""}`,
      role: "img",
      "aria-label": face,
      title: face,
      "data-seat": seat,
      style,
    },
    h("span", { class: "token-back", "aria-hidden": "true" }),
    kind && h("span", { class: "token-front", "aria-hidden": "true" }, KIND[kind]),
  );
}

// The markers lying on `noble` during the ballot: face down, but the viewer's own face up.
function ballotTokens(election, noble, names) {
  const mine = new Map(election.my_markers.map((m) => [m.commitment, m.kind]));
  return election.placed.flatMap(({ seat, markers }) =>
    markers
      .filter((m) => m.candidate === noble)
      .map((m) => token(seat, names, mine.get(m.commitment) ?? null)),
  );
}

// -- candidates as cards ----------------------------------------------------------------------

function candidateCard(
  noble,
  seat,
  names,
  { tokens = [], votes = null, winner = false, withdrawn = false } = {},
) {
  const house = names.houseOfNoble(noble);
  const [c1 = "#6b7280", c2 = c1] = names.colours(house);
  const titles = names.nobles.get(noble)?.titles ?? [];
  return h(
    "li",
    {
      class: `candidate${winner ? " winner" : ""}${withdrawn ? " withdrawn" : ""}`,
      "data-noble": noble,
      style: { "--c1": c1, "--c2": c2 },
    },
    h(
      "p",
      { class: "candidate-name" },
      h("strong", {}, names.noble(noble)),
      winner ? " ★ winner" : "",
    ),
    h("p", { class: "candidate-house" }, swatch(names.colours(house)), " ", names.house(house)),
    h(
      "p",
      { class: "candidate-titles" },
      titles.length ? titles.map((t) => names.title(t)).join(", ") : "No title",
    ),
    seat !== null && h("p", { class: "muted" }, `Put forward by ${names.seat(seat)}`),
    withdrawn &&
      h("p", { class: "candidate-withdrawn" }, "Withdrawn: markers on him count for nothing"),
    votes !== null &&
      h(
        "p",
        { class: "candidate-votes", "data-testid": `votes-${noble}` },
        `${votes} vote${votes === 1 ? "" : "s"}`,
      ),
    h("div", { class: "tokens", "data-testid": `tokens-${noble}` }, tokens),
  );
}

// Sealed ballots (a variant of R-7.1): where a marker lies is hidden too, so the markers wait
// face down beside the cards; the owner's own still show their kind and candidate.
function sealedTray(election, names) {
  const mine = new Map(election.my_markers.map((m) => [m.commitment, m]));
  const hidden = election.placed.flatMap(({ seat, markers }) =>
    markers.filter((m) => !m.candidate).map((m) => [seat, mine.get(m.commitment)]),
  );
  if (!hidden.length) return null;
  return h(
    "div",
    { class: "sealed-tray", "data-testid": "sealed-tray" },
    h("p", { class: "muted" }, "Sealed markers: where each lies is hidden until the reveal."),
    h(
      "div",
      { class: "tokens" },
      hidden.map(([seat, own]) => [
        token(seat, names, own?.kind ?? null),
        own ? ` on ${names.noble(own.candidate)} ` : "",
      ]),
    ),
  );
}

function candidateCards(election, names) {
  if (!election.candidates.length) return h("p", { class: "muted" }, "No candidate yet.");
  const ballot = election.stage === "ballot";
  return [
    h(
      "ul",
      { class: "candidate-cards", "aria-label": "Candidates", "data-testid": "candidates" },
      election.candidates.map((c) =>
        candidateCard(c.noble, c.seat, names, {
          tokens: ballot ? ballotTokens(election, c.noble, names) : [],
          withdrawn: election.withdrawn.includes(c.noble),
        }),
      ),
    ),
    ballot && sealedTray(election, names),
  ];
}

// -- the players: turn order, then votes and placements ---------------------------------------

// Votes are fixed when the ballot opens (R-7.2): during candidacy there is no count to show.
function placementState(election, seat, names, court) {
  if (election.acted.includes(seat) && ranOut(court, seat, election.stage)) return "time ran out";
  if (election.stage !== "ballot")
    return election.acted.includes(seat) ? "acted" : seat === election.current ? "now" : "waiting";
  const votes = election.weights.find((w) => w.seat === seat)?.votes ?? 0;
  const markers = election.placed.find((p) => p.seat === seat)?.markers;
  if (markers === undefined) return votes ? "not yet placed" : "no votes";
  if (!markers.length) return "placed no marker";
  const on = markers.filter((m) => m.candidate).map((m) => names.noble(m.candidate));
  return `placed ${markers.length} face down${on.length ? ` on ${on.join(" and ")}` : ""}`;
}

function playersTable(election, names, court) {
  const ballot = election.stage === "ballot";
  return h(
    "table",
    { class: "weights" },
    h("caption", {}, ballot ? "Votes and placements" : "Turn order"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Player"),
        ballot && h("th", { scope: "col" }, "Votes"),
        h("th", { scope: "col" }, ballot ? "Markers" : "Candidacy"),
      ),
    ),
    h(
      "tbody",
      {},
      election.order.map((seat) =>
        h(
          "tr",
          { class: seat === election.current ? "current" : "", "data-testid": `placement-${seat}` },
          h("th", { scope: "row" }, names.seat(seat), seat === election.current ? " ◀ now" : ""),
          ballot &&
            h(
              "td",
              { "data-testid": `weight-${seat}` },
              String(election.weights.find((w) => w.seat === seat)?.votes ?? 0),
            ),
          h("td", {}, placementState(election, seat, names, court)),
        ),
      ),
    ),
    !ballot &&
      h(
        "p",
        { class: "muted", "data-testid": "votes-later" },
        "Each player's votes are counted when the ballot opens (R-7.2).",
      ),
  );
}

function myMarkers(election, names) {
  if (!election.my_markers.length) return null;
  return h(
    "p",
    { class: "secret", "data-testid": "my-markers" },
    h("strong", {}, "Your markers "),
    "(only you see which is which until the reveal): ",
    election.my_markers.map((m) => `${KIND[m.kind]} ${names.noble(m.candidate)}`).join(" · "),
  );
}

// -- the forms --------------------------------------------------------------------------------

function standForm(moves, ctx, names) {
  const stands = moves.filter((m) => m.message === "stand");
  const canPass = moves.some((m) => m.message === "pass");
  const select = h(
    "select",
    { id: "stand-noble", name: "noble" },
    stands.map((m) => h("option", { value: m.payload.noble }, names.noble(m.payload.noble))),
  );
  return h(
    "form",
    {
      class: "move",
      "aria-label": "Candidacy",
      onsubmit: (e) => {
        e.preventDefault();
        ctx.send("stand", { noble: onPage(select).value });
      },
    },
    stands.length
      ? [
          h("label", { for: "stand-noble" }, "Put forward "),
          select,
          h("button", { type: "submit" }, "Stand"),
        ]
      : h("p", {}, "You have no Lord who may stand."),
    canPass &&
      h("button", { type: "button", onclick: () => ctx.send("pass", {}) }, "Pass (no candidate)"),
  );
}

function ballotForm(election, moves, ctx, names) {
  const ballots = moves.filter((m) => m.message === "place_ballot").map((m) => m.payload.markers);
  const key = (markers) =>
    markers
      .map((m) => `${m.kind}:${m.candidate}`)
      .sort()
      .join("|");
  const allowed = new Set(ballots.map(key));
  const options = () => [
    h("option", { value: "" }, "— no marker —"),
    election.candidates.map((c) => h("option", { value: c.noble }, names.noble(c.noble))),
  ];
  const forSelect = h("select", { id: "marker-for", name: "for" }, options());
  const decoySelect = h("select", { id: "marker-decoy", name: "decoy" }, options());
  const place = (event) => {
    event.preventDefault();
    const markers = [];
    const [chosenFor, chosenDecoy] = [forSelect, decoySelect].map((s) => onPage(s).value);
    if (chosenFor) markers.push({ kind: "for", candidate: chosenFor });
    if (chosenDecoy) markers.push({ kind: "decoy", candidate: chosenDecoy });
    if (!markers.length) {
      ctx.send("pass", {});
      return;
    }
    if (!allowed.has(key(markers))) {
      ctx.notify("That placement is not allowed now.", "error");
      return;
    }
    ctx.send("place_ballot", { markers });
  };
  return h(
    "form",
    { class: "move ballot", "aria-label": "Your markers", onsubmit: place },
    h(
      "p",
      {},
      "Place your markers face down. Only the FOR counts; the DECOY hides it. Nobody else learns which is which until the reveal.",
    ),
    h("label", { for: "marker-for" }, "FOR marker on "),
    forSelect,
    h("label", { for: "marker-decoy" }, "DECOY marker on "),
    decoySelect,
    h("button", { type: "submit" }, "Place markers"),
    h("button", { type: "button", onclick: () => ctx.send("pass", {}) }, "Place no marker"),
  );
}

function receiptView(receipt, names, gameId) {
  if (!receipt) return null;
  return h(
    "details",
    { class: "receipt", "data-testid": "receipt" },
    h(
      "summary",
      {},
      `Your receipt for ${names.electionName(receipt.election)} (version ${receipt.version})`,
    ),
    h(
      "p",
      {},
      "Keep it to check after the reveal that your markers were counted as placed: on ",
      h("a", { href: `/games/${gameId}/history` }, "the history page"),
      `, export the log or check its chain; record ${receipt.version} must carry this hash and these commitments, and the reveal must open each commitment to the kind, Noble and salt below.`,
    ),
    h(
      "dl",
      {},
      h("dt", {}, "Record hash"),
      h("dd", {}, h("code", {}, receipt.record_hash)),
      receipt.markers.map((m, i) => [
        h("dt", {}, `${KIND[m.kind]} on ${names.noble(m.candidate)}`),
        h(
          "dd",
          {},
          "commitment ",
          h("code", {}, receipt.commitments[i] ?? "?"),
          " salt ",
          h("code", {}, m.salt),
        ),
      ]),
    ),
  );
}

// -- the reveal -------------------------------------------------------------------------------

// A reveal pushed while the page is open (`live`) turns its markers over; a redraw meanwhile
// carries the turn on from where it was (a negative delay), so it is seen once. One read from
// the log when the page opened shows them face up at once.

function winnerLine(data, names, pending) {
  if (!data.winner)
    return h(
      "p",
      { class: "winner-line" },
      `Nobody is elected: ${names.title(data.title)} stays free.`,
    );
  const offered =
    pending &&
    pending.kind === "acceptance" &&
    pending.title === data.title &&
    pending.noble === data.winner;
  return h(
    "p",
    { class: "winner-line", "data-testid": "winner" },
    h("strong", {}, names.noble(data.winner)),
    ` is ${offered ? "offered" : "elected to"} ${names.title(data.title)}`,
    offered
      ? `; ${names.does(pending.seat, "accepts or refuses it", "accept or refuse it")}.`
      : ".",
  );
}

// The reveal in full while it is news (seen live, or its winner still to answer); an older one
// folds to its verdict, one click away, so the page stays short between elections.
export function revealView(reveal, names, pending = null) {
  if (!reveal) return null;
  const { data } = reveal;
  const turning = reveal.live ? `-${Math.round(performance.now() - reveal.arrived)}ms` : null;
  const votes = [...data.votes].sort((a, b) => b.votes - a.votes);
  const tokensOn = (noble) =>
    data.markers
      .filter((m) => m.candidate === noble)
      .map((m) => token(m.seat, names, m.kind, turning));
  const news = reveal.live || (pending && pending.title === data.title);
  const body = [
    winnerLine(data, names, pending),
    h(
      "ul",
      { class: "candidate-cards revealed", "aria-label": "Candidates, markers turned over" },
      votes.map(({ noble, votes: n }) =>
        candidateCard(noble, null, names, {
          tokens: tokensOn(noble),
          votes: n,
          winner: noble === data.winner,
        }),
      ),
    ),
    h(
      "details",
      { class: "tally" },
      h("summary", {}, "The tally and every marker"),
      h(
        "table",
        {},
        h("caption", {}, "Tally (FOR markers only)"),
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, "Candidate"), h("th", { scope: "col" }, "Votes")),
        ),
        h(
          "tbody",
          {},
          votes.map(({ noble, votes: n }) =>
            h(
              "tr",
              { class: noble === data.winner ? "winner" : "" },
              h(
                "th",
                { scope: "row" },
                nobleWithHouse(noble, names),
                noble === data.winner ? " ★ winner" : "",
              ),
              h("td", {}, String(n)),
            ),
          ),
        ),
      ),
      h(
        "ul",
        {},
        data.markers.map((m) =>
          h(
            "li",
            {},
            `${names.seat(m.seat)}: ${KIND[m.kind] ?? m.kind} on ${names.noble(m.candidate)}`,
          ),
        ),
      ),
    ),
  ];
  if (!news) {
    return h(
      "details",
      { class: "reveal", id: "last-reveal", "data-testid": "reveal" },
      h("summary", {}, h("strong", {}, `Last reveal: ${names.title(data.title)}. `), reveal.text),
      body,
    );
  }
  return h(
    "section",
    { class: "reveal", "aria-label": "Last reveal", "data-testid": "reveal" },
    h("h3", {}, `Reveal: ${names.title(data.title)}`),
    h("p", { class: "verdict" }, reveal.text),
    body,
  );
}

// -- the panel --------------------------------------------------------------------------------

// Between elections: the title offered to the last winner while his player answers, rather
// than "no election" above the reveal that elected him.
function betweenElections(court, names) {
  const { pending } = court;
  if (pending && pending.kind === "acceptance" && pending.election) {
    return h(
      "p",
      { class: "election-title", "data-testid": "offer" },
      h("strong", {}, names.electionName(pending.election)),
      ": the vote is counted. ",
      `${names.noble(pending.noble)} is offered the title; ${names.does(pending.seat, "accepts or refuses it", "accept or refuse it")}.`,
    );
  }
  return h("p", { class: "muted", "data-testid": "no-election" }, "No election is under way.");
}

function electionNow(election, court, names, ctx) {
  const mine = election.current === court.viewer.seat && court.viewer.seat !== null;
  const moves = mine ? court.moves : [];
  return [
    h(
      "p",
      { class: "election-title" },
      h("strong", {}, names.title(election.title)),
      ` — ${election.stage === "ballot" ? "Ballot" : "Candidacy"}`,
      court.game.variants.sealed_ballots ? " (sealed ballots)" : "",
      election.minimum ? ` · at least ${election.minimum} votes to win` : "",
    ),
    candidateCards(election, names),
    playersTable(election, names, court),
    myMarkers(election, names),
    mine && election.stage === "candidacy" && standForm(moves, ctx, names),
    mine && election.stage === "ballot" && ballotForm(election, moves, ctx, names),
  ];
}

// The sections of the court view this panel reads (lib/sections.js).
export const ELECTION_READS = [
  ...TURN,
  ...["version", "moves", "clocks", REVEAL, RECEIPT],
  ...NAMES,
];

export function renderElection(el, court, names, ctx) {
  const { election, viewer } = court;
  const receipt = viewer.seat !== null ? keptReceipt(ctx.gameId, court, ctx.reveal) : null;
  fill(
    el,
    h("h2", { id: "election-heading" }, "Election"),
    election ? electionNow(election, court, names, ctx) : betweenElections(court, names),
    receiptView(receipt, names, ctx.gameId),
    revealView(ctx.reveal, names, court.pending),
  );
}
