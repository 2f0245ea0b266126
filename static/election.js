// The election panel (R-7.1): candidates, vote weights, who has acted or placed, stand or pass,
// FOR and DECOY markers, one's own receipt, and the last reveal with its tally.
import { h, fill, swatch } from "./dom.js";

const receiptKey = (gameId, seat) => `receipt:${gameId}:${seat}`;

export function keepReceipt(gameId, seat, receipt) {
  localStorage.setItem(receiptKey(gameId, seat), JSON.stringify(receipt));
}

function keptReceipt(gameId, seat) {
  try { return JSON.parse(localStorage.getItem(receiptKey(gameId, seat)) ?? "null"); } catch { return null; }
}

function nobleWithHouse(noble, names) {
  const house = names.houseOfNoble(noble);
  return [names.noble(noble), " ", h("span", { class: "house-tag" }, swatch(names.colours(house)), " ", names.house(house))];
}

function candidatesTable(election, names) {
  if (!election.candidates.length) return h("p", { class: "muted" }, "No candidate yet.");
  return h("table", { class: "candidates" },
    h("caption", {}, "Candidates"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Lord"), h("th", { scope: "col" }, "Put forward by"))),
    h("tbody", {}, election.candidates.map((c) =>
      h("tr", {}, h("th", { scope: "row" }, nobleWithHouse(c.noble, names)), h("td", {}, names.seat(c.seat))))));
}

function weightsTable(election, names) {
  const placed = new Map(election.placed.map((p) => [p.seat, p.markers]));
  const ballot = election.stage === "ballot";
  return h("table", { class: "weights" },
    h("caption", {}, ballot ? "Votes and placements" : "Turn order and votes"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Votes"), h("th", { scope: "col" }, ballot ? "Markers" : "Acted"))),
    h("tbody", {}, election.order.map((seat) => {
      const votes = election.weights.find((w) => w.seat === seat)?.votes ?? 0;
      const markers = placed.get(seat);
      let state;
      if (ballot) {
        state = markers === undefined ? (votes ? "not yet placed" : "no votes")
          : markers.length === 0 ? "placed no marker"
            : `placed ${markers.length} face down${markers.some((m) => m.candidate) ? ` on ${markers.map((m) => names.noble(m.candidate)).join(" and ")}` : ""}`;
      } else {
        state = election.acted.includes(seat) ? "acted" : seat === election.current ? "now" : "waiting";
      }
      return h("tr", { class: seat === election.current ? "current" : "", "data-testid": `placement-${seat}` },
        h("th", { scope: "row" }, names.seat(seat), seat === election.current ? " ◀ now" : ""),
        h("td", {}, String(votes)), h("td", {}, state));
    })));
}

function myMarkers(election, names) {
  if (!election.my_markers.length) return null;
  return h("p", { class: "secret", "data-testid": "my-markers" },
    h("strong", {}, "Your markers "), "(only you see which is which until the reveal): ",
    election.my_markers.map((m) => `${m.kind === "for" ? "FOR" : "DECOY"} ${names.noble(m.candidate)}`).join(" · "));
}

function standForm(moves, ctx, names) {
  const stands = moves.filter((m) => m.message === "stand");
  const canPass = moves.some((m) => m.message === "pass");
  const select = h("select", { id: "stand-noble", name: "noble" }, stands.map((m) => h("option", { value: m.payload.noble }, names.noble(m.payload.noble))));
  return h("form", { class: "move", "aria-label": "Candidacy", onsubmit: (e) => { e.preventDefault(); ctx.send("stand", { noble: select.value }); } },
    stands.length ? [h("label", { for: "stand-noble" }, "Put forward "), select, h("button", { type: "submit" }, "Stand")] : h("p", {}, "You have no Lord who may stand."),
    canPass && h("button", { type: "button", onclick: () => ctx.send("pass", {}) }, "Pass (no candidate)"));
}

function ballotForm(election, moves, ctx, names) {
  const ballots = moves.filter((m) => m.message === "place_ballot").map((m) => m.payload.markers);
  const key = (markers) => markers.map((m) => `${m.kind}:${m.candidate}`).sort().join("|");
  const allowed = new Set(ballots.map(key));
  const options = () => [h("option", { value: "" }, "— no marker —"),
    election.candidates.map((c) => h("option", { value: c.noble }, names.noble(c.noble)))];
  const forSelect = h("select", { id: "marker-for", name: "for" }, options());
  const decoySelect = h("select", { id: "marker-decoy", name: "decoy" }, options());
  const place = (event) => {
    event.preventDefault();
    const markers = [];
    if (forSelect.value) markers.push({ kind: "for", candidate: forSelect.value });
    if (decoySelect.value) markers.push({ kind: "decoy", candidate: decoySelect.value });
    if (!markers.length) { ctx.send("pass", {}); return; }
    if (!allowed.has(key(markers))) { ctx.notify("That placement is not allowed now.", "error"); return; }
    ctx.send("place_ballot", { markers });
  };
  return h("form", { class: "move ballot", "aria-label": "Your markers", onsubmit: place },
    h("p", {}, "Place your markers face down. Only the FOR counts; the DECOY hides it. Nobody else learns which is which until the reveal."),
    h("label", { for: "marker-for" }, "FOR marker on "), forSelect,
    h("label", { for: "marker-decoy" }, "DECOY marker on "), decoySelect,
    h("button", { type: "submit" }, "Place markers"),
    h("button", { type: "button", onclick: () => ctx.send("pass", {}) }, "Place no marker"));
}

function receiptView(receipt, names) {
  if (!receipt) return null;
  return h("details", { class: "receipt", "data-testid": "receipt" },
    h("summary", {}, `Your receipt for ${names.electionName(receipt.election)} (version ${receipt.version})`),
    h("p", {}, "Keep it to check after the reveal that your markers were counted as placed (docs/protocol.md)."),
    h("dl", {},
      h("dt", {}, "Record hash"), h("dd", {}, h("code", {}, receipt.record_hash)),
      receipt.markers.map((m, i) => [
        h("dt", {}, `${m.kind === "for" ? "FOR" : "DECOY"} on ${names.noble(m.candidate)}`),
        h("dd", {}, "commitment ", h("code", {}, receipt.commitments[i] ?? "?"), " salt ", h("code", {}, m.salt))])));
}

export function revealView(reveal, names) {
  if (!reveal) return null;
  const { data } = reveal;
  const votes = [...data.votes].sort((a, b) => b.votes - a.votes);
  return h("section", { class: "reveal", "aria-label": "Last reveal", "data-testid": "reveal" },
    h("h3", {}, `Reveal: ${names.title(data.title)}`),
    h("p", { class: "verdict" }, reveal.text),
    h("table", {},
      h("caption", {}, "Tally (FOR markers only)"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Candidate"), h("th", { scope: "col" }, "Votes"))),
      h("tbody", {}, votes.map(({ noble, votes: n }) => h("tr", { class: noble === data.winner ? "winner" : "" },
        h("th", { scope: "row" }, nobleWithHouse(noble, names), noble === data.winner ? " ★ winner" : ""), h("td", {}, String(n)))))),
    h("details", {}, h("summary", {}, "Every marker, revealed"),
      h("ul", {}, data.markers.map((m) => h("li", {}, `${names.seat(m.seat)}: ${m.kind.toUpperCase()} on ${names.noble(m.candidate)}`)))));
}

export function renderElection(el, court, names, ctx) {
  const { election, viewer } = court;
  const mine = election && election.current === viewer.seat && viewer.seat !== null;
  const moves = mine ? court.moves : [];
  const receipt = viewer.seat !== null ? keptReceipt(ctx.gameId, viewer.seat) : null;
  fill(el,
    h("h2", { id: "election-heading" }, "Election"),
    election ? [
      h("p", { class: "election-title" }, h("strong", {}, names.title(election.title)), ` — ${election.stage === "ballot" ? "Ballot" : "Candidacy"}`,
        court.game.variants.sealed_ballots ? " (sealed ballots)" : "", election.minimum ? ` · at least ${election.minimum} votes to win` : ""),
      candidatesTable(election, names),
      weightsTable(election, names),
      myMarkers(election, names),
      mine && election.stage === "candidacy" && standForm(moves, ctx, names),
      mine && election.stage === "ballot" && ballotForm(election, moves, ctx, names),
    ] : h("p", { class: "muted" }, "No election is under way."),
    receiptView(receipt, names),
    revealView(ctx.reveal, names));
}
