// What the table decides together (docs/rules-map.md, "The table decides together"): the seats
// vote to hand the seat of a player gone long enough to a new link and to end the game, and
// answer the host's correction of a fact he recorded, which he picks from the history here.
// Every vote is public and shown with who cast it, from the court view's `table`; whether a
// seat is gone, and since when, comes from the `presence` push.
import { call } from "../lib/api.js";
import { confirmed, errorText, fill, h, listen, onPage, say, stillShown } from "../lib/dom.js";
import { tokenFor, tokenLink } from "../lib/seat_store.js";
import { NAMES, PRESENCE } from "../lib/sections.js";
import { botQuestion, choiceCounts, playedByBot, replaceChoices } from "./bot_seats.js";
import { copyField } from "./seats.js";

const clockTime = (seconds) =>
  new Date(seconds * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const listed = (seats, names) => seats.map((s) => names.seat(s)).join(", ") || "nobody";
const FACTS = { VillageControlChanged: "village", GoldAdjusted: "gold", NobleDied: "death" };

// The new links of the seats this seat voted to replace, by seat, as the server last gave
// them: each is shown to every seat that voted for it until its new player opens it.
const replaced = new Map();
const voted = { asked: "", reading: null };
let replaceTimer = null;

// Each other seat gone (or voted on): since when, whether it may be replaced yet, the votes
// that count (those cast since his absence began) and this viewer's button.
// `voted`: only the seats some vote counts for (what a spectator, who has no vote, is shown).
function replaceRows(court, names, ctx, voted) {
  const { table, viewer } = court;
  const presence = ctx.presence();
  if (!presence || presence.stale)
    return voted
      ? []
      : [h("li", { class: "muted" }, "Whether the players are connected is not known right now.")];
  const away = presence.seats_away_since ?? {};
  const votes = new Map(table.replace.map((r) => [r.seat, r]));
  const electors = court.seats.length - 1;
  const rows = [];
  clearTimeout(replaceTimer);
  // A seat the table handed to a new link: its new player's absence counts from then.
  const handed = new Map(table.replaced_at.map((r) => [r.seat, r.at]));
  for (const seat of court.seats) {
    const gone = away[seat.seat];
    const since =
      gone === undefined || gone === null ? undefined : Math.max(gone, handed.get(seat.seat) ?? 0);
    const cast = votes.get(seat.seat);
    if (since === undefined && !cast) continue;
    const counted = since === undefined ? [] : (cast?.voters ?? []).filter((v) => v.at >= since);
    if (voted && !counted.length) continue;
    const needed = Math.floor(electors / 2) + 1;
    const parts = [h("strong", {}, names.seat(seat.seat)), " "];
    if (since === undefined)
      parts.push("is connected again: earlier votes to replace him no longer count.");
    else {
      const from = since + table.replace_after;
      const wait = from - ctx.clock.now();
      parts.push(`has had no connection since ${clockTime(since)}. `);
      if (playedByBot(court, seat.seat)) parts.push("The bot plays his seat. ");
      if (wait > 0) {
        replaceTimer = setTimeout(() => ctx.redraw(), wait * 1000 + 250);
        parts.push(`The other seats may vote to replace him from ${clockTime(from)}.`);
      } else
        parts.push(
          `Votes to replace him: ${counted.length} of the ${needed} needed (${listed(
            counted.map((v) => v.seat),
            names,
          )}).`,
          counted.length ? ` ${choiceCounts(counted)}: a majority must agree on one.` : "",
        );
    }
    const mine = counted.some((v) => v.seat === viewer.seat);
    const may =
      since !== undefined &&
      since + table.replace_after <= ctx.clock.now() &&
      viewer.seat !== null &&
      viewer.seat !== seat.seat &&
      !seat.host &&
      !mine;
    rows.push(
      h(
        "li",
        { "data-seat": seat.seat, class: "replace-row" },
        ...parts,
        mine && h("span", { class: "muted" }, " You voted to replace him."),
        seat.host &&
          since !== undefined &&
          h("span", { class: "muted" }, " He holds the host role: vote a new host in first."),
        may && " ",
        may && replaceChoices(court, seat, (s, bot) => voteReplace(s, names, ctx, bot)),
      ),
    );
  }
  return rows;
}

async function voteReplace(seat, names, ctx, bot = false) {
  const sure = await confirmed(
    bot
      ? botQuestion(names.seat(seat.seat))
      : `Vote to hand the seat of ${names.seat(seat.seat)} to a new link? Once a majority of the other seats votes so, his link stops working at once and the seat goes to whoever gets the new link, as when the host hands a seat over.`,
    bot ? "Vote for the bot" : "Vote to replace",
  );
  if (!sure) return;
  const ack = await ctx.send("vote_replace", { seat: seat.seat, bot });
  if (ack?.token) {
    replaced.set(seat.seat, tokenLink(ctx.gameId, ack.token));
    ctx.redraw();
  }
}

// Asks the server again for the links of the seats this seat voted to replace whenever a
// replacement or a connection changes: a link leaves every voter's page once its new player
// has opened it.
function readVotedLinks(court, ctx) {
  const me = court.viewer.seat;
  const mine = court.table.replaced_by.filter((r) => me !== null && r.voters.includes(me));
  const away = ctx.presence()?.seats_away_since ?? {};
  const asked = JSON.stringify(mine.map((r) => [r.seat, away[r.seat] ?? null]));
  if (asked === voted.asked || voted.reading) return;
  voted.asked = asked;
  if (!mine.length) return;
  voted.reading = call(
    "GET",
    `/api/games/${ctx.gameId}/table/links`,
    undefined,
    tokenFor(ctx.gameId),
  )
    .then(({ links }) => {
      replaced.clear();
      for (const { seat, token } of links) replaced.set(seat, tokenLink(ctx.gameId, token));
    })
    .catch(() => {
      voted.asked = ""; // asked again at the next redraw
    })
    .finally(() => {
      voted.reading = null;
      ctx.redraw();
    });
}

// The link of each seat this seat voted to replace, until its new player opens it.
function replacedLinks(court, names, ctx) {
  const me = court.viewer.seat;
  return [...replaced].map(([seat, link]) => {
    const by = court.table.replaced_by.find((r) => r.seat === seat)?.voters ?? [];
    if (!by.includes(me)) return null;
    return h(
      "p",
      { class: "handed", "data-seat": seat },
      `The table voted to replace ${names.seat(seat)}${by.length ? ` (${listed(by, names)})` : ""}. Its new link, shown to each seat that voted for it until the new player opens it (the old link no longer works; send it to the new player): `,
      ...copyField(`replaced-link-${seat}`, "New seat link", link, ctx),
    );
  });
}

function endPart(court, names, ctx) {
  const { end } = court.table;
  if (end.ended_by.length)
    return h(
      "p",
      { class: "notice info", id: "table-ended" },
      h("strong", {}, "The table ended the game: "),
      `${listed(end.ended_by, names)} voted for it, ${end.ended_by.length} of the ${end.seats} seats. Nobody won. Standings: `,
      court.houses
        .filter((house) => house.seat !== null)
        .map((house) => `${house.name} ${house.vp} VP`)
        .join(", "),
      ".",
    );
  if (!court.table.open) return null;
  const me = court.viewer.seat;
  const mine = me !== null && end.voters.includes(me);
  const ask = async () => {
    const text = mine
      ? "Take back your vote to end the game?"
      : `Vote to end the game now? Once ${end.votes_needed} of the ${end.seats} seats vote so, the game ends at once without winners, the standings recorded; nothing can be played after.`;
    if (await confirmed(text, mine ? "Take it back" : "Vote to end"))
      ctx.send("vote_end", { end: !mine });
  };
  return h(
    "div",
    { id: "end-vote" },
    h(
      "p",
      {},
      `Votes to end the game: ${end.voters.length} of the ${end.votes_needed} needed (${listed(end.voters, names)}).`,
    ),
    me !== null &&
      h(
        "button",
        { type: "button", id: mine ? "withdraw-end" : "vote-end", onclick: ask },
        mine ? "Take back your vote to end the game" : "Vote to end the game",
      ),
  );
}

// What the record says and what the correction would say, side by side.
function proposal(c, names) {
  if (c.fact === "village_control")
    return `${names.village(c.subject)}: the record says ${names.house(c.recorded.house)} holds it; the correction says ${names.house(c.proposed.house)} holds it`;
  if (c.fact === "gold")
    return `Gold Dragons of ${names.house(c.subject)}: the record says ${c.recorded.amount}; the correction says ${c.proposed.amount}`;
  const again = c.proposed.candidacy ? " and stands again in the election under way" : "";
  return `${names.noble(c.subject)}: the record says he died; the correction says he lives${again}`;
}

function correctionPart(court, names, ctx) {
  const c = court.table.correction;
  if (!c) return null;
  const me = court.viewer.seat;
  const answered = me === null || c.accepted.includes(me) || c.refused.includes(me);
  const answer = (accept) => async () => {
    const text = accept
      ? `Accept this correction? ${proposal(c, names)}. Once ${c.votes_needed} of the ${c.seats} seats accept, it takes effect; the record stays in the history beside it.`
      : "Refuse this correction? The record stands as it is if enough seats refuse.";
    if (await confirmed(text, accept ? "Accept" : "Refuse"))
      ctx.send("answer_correction", { accept });
  };
  return h(
    "div",
    { class: "correction", id: "open-correction", "data-version": c.version },
    h(
      "p",
      {},
      h("strong", {}, `The host proposes to correct record #${c.version}. `),
      `${proposal(c, names)} (${c.cause}).`,
    ),
    h(
      "p",
      { class: "muted" },
      `Accepted by ${listed(c.accepted, names)}; refused by ${listed(c.refused, names)}. ${c.votes_needed} of the ${c.seats} seats' acceptances make it.`,
    ),
    !answered && [
      h("button", { type: "button", id: "accept-correction", onclick: answer(true) }, "Accept"),
      " ",
      h("button", { type: "button", id: "refuse-correction", onclick: answer(false) }, "Refuse"),
    ],
    court.viewer.host &&
      h(
        "button",
        {
          type: "button",
          id: "withdraw-correction",
          onclick: async () => {
            if (await confirmed("Withdraw your correction?", "Withdraw"))
              ctx.send("withdraw_correction", {});
          },
        },
        "Withdraw the correction",
      ),
  );
}

// The host's recorded facts, read from the history as the game goes on (a fact's record
// follows the note of who recorded it).
const facts = { entries: [], after: 0, reading: null };

async function readFacts(ctx) {
  for (;;) {
    const page = await call(
      "GET",
      `/api/games/${ctx.gameId}/history?after=${facts.after}&limit=200`,
      undefined,
      tokenFor(ctx.gameId),
    );
    facts.entries.push(...page.entries);
    facts.after = page.entries.at(-1)?.version ?? facts.after;
    if (page.next_after === null) return;
  }
}

// A fact's record follows the note of who recorded it, or another record of the same submit
// (the map records every village it changed after one note).
function recordedFacts(court) {
  const made = new Set(court.table.made.map((c) => c.version));
  const entries = facts.entries;
  const noted = (i) => {
    let j = i - 1;
    while (entries[j]?.type === entries[i].type) j -= 1;
    return entries[j]?.type === "FactRecorded";
  };
  return entries.filter((e, i) => FACTS[e.type] && noted(i) && !made.has(e.version));
}

// The correction form's fields, its refusal and whether it is open, as the host left them.
let draft = {};
const clearDraft = () => {
  draft = {};
};

function proposeForm(court, ctx) {
  if (!court.viewer.host || !court.table.open || court.table.correction) return null;
  if (facts.after < court.game.version && !facts.reading)
    facts.reading = readFacts(ctx)
      .catch((error) => ctx.notify(errorText(error), "error"))
      .finally(() => {
        facts.reading = null;
        ctx.redraw();
      });
  const records = recordedFacts(court);
  const record = h(
    "select",
    { id: "correct-record", "aria-label": "The record to correct" },
    h("option", { value: "" }, "— pick a death, village or gold you recorded —"),
    records
      .slice()
      .reverse()
      .map((e) =>
        h("option", { value: e.version, "data-fact": FACTS[e.type] }, `#${e.version} ${e.text}`),
      ),
  );
  const house = h(
    "select",
    { id: "correct-house", "aria-label": "Who held the village" },
    court.houses.map((x) => h("option", { value: x.id }, x.name)),
    h("option", { value: "" }, "nobody"),
  );
  const amount = h("input", {
    id: "correct-amount",
    type: "number",
    min: -1000,
    max: 1000,
    size: 6,
    "aria-label": "Gold Dragons that should have been recorded",
  });
  const cause = h("input", {
    id: "correct-cause",
    type: "text",
    maxlength: 200,
    size: 30,
    placeholder: "why (e.g. I misread the board)",
    "aria-label": "Why",
  });
  const houseField = h("label", { hidden: true }, "Held by ", house);
  const amountField = h("label", { hidden: true }, "Should have been ", amount, " GD");
  const deathField = h(
    "span",
    { hidden: true, class: "muted" },
    "He lives again, as he stood before.",
  );
  const status = h("p", {
    class: "notice",
    role: "status",
    id: "propose_correction-status",
    hidden: true,
  });
  const showFields = () => {
    const fact = onPage(record).selectedOptions[0]?.dataset.fact;
    onPage(houseField).hidden = fact !== "village";
    onPage(amountField).hidden = fact !== "gold";
    onPage(deathField).hidden = fact !== "death";
  };
  listen(record, "change", showFields);
  // What the host typed outlives a redraw (a push, a refusal): he corrects it, not retypes it.
  const fields = { record, house, amount, cause };
  for (const [key, field] of Object.entries(fields)) {
    if (draft[key] !== undefined) field.value = draft[key];
    listen(field, "input", (event) => {
      draft[key] = event.currentTarget.value;
      draft.status = undefined;
    });
  }
  if (draft.status) say(status, draft.status, "error");
  showFields();
  const submit = async (event) => {
    event.preventDefault();
    const chosen = records.find((e) => String(e.version) === onPage(record).value);
    if (!chosen) return say(onPage(status), "Pick the record to correct first.", "error");
    const payload = { version: chosen.version, cause: onPage(cause).value.trim() };
    if (FACTS[chosen.type] === "village") payload.house = onPage(house).value || null;
    if (FACTS[chosen.type] === "gold") payload.amount = Number(onPage(amount).value);
    const sure = await confirmed(
      `Propose to correct record #${chosen.version} (${chosen.text})? The seats accept or refuse it; it takes effect once a majority accepts, and the record stays in the history beside the correction.`,
      "Propose",
    );
    if (!sure) return;
    const ack = await ctx.send("propose_correction", payload, status);
    if (ack) clearDraft();
    else draft.status = stillShown(status).textContent.replace(/^Error: /, "");
  };
  return h(
    "details",
    {
      id: "propose-correction",
      open: draft.open,
      ontoggle: (event) => {
        draft.open = event.target.open;
      },
    },
    h("summary", {}, "Correct a fact you recorded (host)"),
    h(
      "form",
      { onsubmit: submit, class: "correction-form" },
      h("p", {}, record),
      h("p", {}, houseField, amountField, deathField),
      h("p", {}, cause, " ", h("button", { type: "submit" }, "Propose the correction")),
      status,
    ),
  );
}

function madeList(court) {
  const made = court.table.made;
  return (
    made.length > 0 && [
      h("h3", {}, "Corrections made"),
      h(
        "ul",
        { id: "corrections-made" },
        made.map((c) => h("li", { "data-version": c.version }, `${c.text} (${c.cause}).`)),
      ),
    ]
  );
}

// The sections of the court view this panel reads (lib/sections.js).
// The version too: the host's correction form reads his facts recorded up to it.
export const TABLE_VOTES_READS = ["game", "version", "table", PRESENCE, ...NAMES];

export function renderTableVotes(el, court, names, ctx) {
  const { table } = court;
  readVotedLinks(court, ctx);
  // A spectator has no vote: he is shown what the seats are voting on or have decided, and
  // no panel while nothing is (a game nobody is connected to would list every seat).
  const watching = court.viewer.seat === null && !court.viewer.host;
  const rows = table.open ? replaceRows(court, names, ctx, watching) : [];
  const decided =
    rows.length ||
    table.end.voters.length ||
    table.end.ended_by.length ||
    table.correction ||
    table.made.length;
  el.hidden = court.game.status === "lobby" || (watching && !decided);
  if (el.hidden) return;
  fill(
    el,
    h("h2", { id: "table-votes-heading" }, "The table decides"),
    endPart(court, names, ctx),
    correctionPart(court, names, ctx),
    table.open &&
      (rows.length > 0 || !watching) &&
      h(
        "div",
        { id: "replace-votes" },
        h("h3", {}, "A player gone"),
        rows.length
          ? h("ul", {}, rows)
          : h(
              "p",
              { class: "muted" },
              `Every seat is connected. A seat whose player has had no connection${table.replace_after ? ` for ${Math.ceil(table.replace_after / 60)} min` : ""} may be handed to a new link by a majority of the other seats.`,
            ),
      ),
    replacedLinks(court, names, ctx),
    proposeForm(court, ctx),
    madeList(court),
  );
}
