// The history page: every event as a sentence, a scrubber showing the court as it stood after
// any event, the hash chain check and the export of the log.
import { call } from "../lib/api.js";
import { Clock } from "../lib/countdown.js";
import { errorText, fill, h, say, showWithin } from "../lib/dom.js";
import { Names, phaseName } from "../lib/names.js";
import { tokenFor } from "../lib/seat_store.js";
import { showMismatch, Witness } from "../lib/witness.js";
import { setUpCompare } from "../panels/changes.js";
import { renderEnding } from "../panels/ending.js";
import { renderHouses } from "../panels/houses.js";
import { believed, unsignedMark, withheld } from "../panels/move_mark.js";
import { renderSummary } from "../panels/table.js";
import { lineItem, talkAfter } from "../panels/talk.js";
import { renderThrone } from "../panels/throne.js";

const gameId = document.querySelector("script[data-game]").dataset.game;
const $ = (id) => document.getElementById(id);
const witness = new Witness(gameId, {
  fetchJson: (path) => call("GET", path),
  onMismatch: (found) => {
    showMismatch($("witness"), witness, found, h);
    showFailed($("verification"), found);
  },
});
const notice = $("notice"),
  scrubber = $("scrubber");
const entries = [];
// The viewer's own talk lines, shown after the event the court stood at when each was said.
let talk = [],
  talkNames = null;
let shown = null,
  wanted = null,
  timer = null;
// The page's check of the head's signed checkpoint, which the badge waits for.
let headChecked = Promise.resolve();
const showAll = $("show-all");
const compare = setUpCompare({
  gameId,
  form: $("compare-form"),
  from: $("compare-from"),
  to: $("compare-to"),
  setFrom: $("compare-set-from"),
  setTo: $("compare-set-to"),
  error: $("compare-error"),
  out: $("changes"),
  chosen: () => Number(scrubber.value),
  witness,
});

// The game as the court view names it (its phases' names): from the court now.
let game = {};

// Where an event happened: "Round 2 · 4. Purchases"; before the first round, the lobby.
function when(entry) {
  if (!entry.round) return "Before the first round";
  return entry.phase
    ? `Round ${entry.round} · ${phaseName(entry.phase, game)}`
    : `Round ${entry.round}`;
}

async function loadEntries() {
  let after = 0;
  for (;;) {
    const page = await call(
      "GET",
      `/api/games/${gameId}/history?after=${after}&limit=200`,
      undefined,
      tokenFor(gameId),
    );
    entries.push(...page.entries);
    // Every entry shown is recomputed here from version 1, off the page's thread.
    witness.checkShown(page.entries);
    if (page.next_after === null) return page.version;
    after = page.next_after;
  }
}

// The court now, as the caller may see it: an ended game's banner heads the page.
async function loadHead() {
  try {
    const court = await call("GET", `/api/games/${gameId}`, undefined, tokenFor(gameId));
    game = court.game;
    renderEnding($("ending"), court, new Names(court));
    return court;
  } catch (error) {
    say(notice, errorText(error), "error");
    return null;
  }
}

// The seats and the game master read their talk; anyone else reads none (and is told so by
// a refusal this page does not show).
async function loadTalk(court) {
  if (!court || !tokenFor(gameId)) return;
  try {
    if (court.viewer.seat === null && court.viewer.role !== "game_master") return;
    talk = await talkAfter(gameId, 0);
    witness.seeTalk(talk);
    talkNames = new Names(court);
  } catch (error) {
    say(notice, errorText(error), "error");
  }
}

// Each event with links to the rules it applied; skips and bookkeeping are drawn but hidden
// until "Show every event" is ticked, and a section mark starts each round and phase.
function drawEntries() {
  let mark = null,
    hidden = 0;
  const items = [];
  const said = new Map();
  for (const line of talk)
    said.set(line.court_version, [...(said.get(line.court_version) ?? []), line]);
  // A correction the table made, beside the record it corrects: the record stays as it was.
  const corrections = new Map(
    entries.filter((e) => e.type === "CorrectionMade").map((e) => [e.data.correction.version, e]),
  );
  for (const e of entries) {
    const at = when(e);
    if (at !== mark) {
      mark = at;
      items.push(h("li", { class: "round-mark", "aria-hidden": "true" }, at));
    }
    const quiet = e.kind !== "play";
    if (quiet) hidden += 1;
    const corrected = corrections.get(e.version);
    const verdict = witness.verdict(e.version);
    items.push(
      h(
        "li",
        {
          "data-version": e.version,
          "data-kind": e.kind,
          "data-corrected-by": corrected?.version,
          class: [quiet && "quiet", corrected && "corrected"].filter(Boolean).join(" "),
        },
        h(
          "button",
          { type: "button", class: "event", onclick: () => choose(e.version) },
          h("span", { class: "version" }, `#${e.version}`),
          " ",
          believed(verdict) ? e.text : withheld(verdict),
        ),
        unsignedMark(verdict),
        e.rules.length
          ? h(
              "span",
              { class: "rules" },
              e.rules.map((rule) =>
                h(
                  "a",
                  {
                    href: `/rules#${rule.startsWith("§") ? `section-${rule.slice(1)}` : rule}`,
                    class: "rule",
                    title: `The rule applied: ${rule}`,
                  },
                  rule,
                ),
              ),
            )
          : null,
        corrected && correctionNote(`Corrected by #${corrected.version}: `, corrected),
        e.type === "CorrectionMade" &&
          correctionNote(
            `Corrects #${e.data.correction.version}, which stays as recorded: `,
            entries[e.data.correction.version - 1],
          ),
      ),
    );
    for (const line of said.get(e.version) ?? []) {
      const item = lineItem(line, talkNames);
      item.dataset.courtVersion = String(e.version);
      items.push(item);
    }
  }
  fill($("events"), items);
  $("hidden-count").textContent = `(${hidden} hidden)`;
  filter();
}

// A line under a corrected record or a correction, leading to the other one.
function correctionNote(text, other) {
  return h(
    "p",
    { class: "correction-note" },
    text,
    other
      ? h(
          "button",
          { type: "button", class: "link", onclick: () => choose(other.version) },
          `#${other.version} ${other.text}`,
        )
      : "",
  );
}

// Skips and bookkeeping show only when asked for; the chosen event always shows.
function filter() {
  $("events").classList.toggle("show-all", showAll.checked);
  $("hidden-count").hidden = showAll.checked;
}

function choose(version) {
  scrubber.value = String(version);
  onScrub();
}

function onScrub() {
  wanted = Number(scrubber.value);
  const entry = entries[wanted - 1];
  const verdict = entry && witness.verdict(entry.version);
  $("scrub-version").textContent = `${wanted} of ${entries.length}`;
  fill(
    $("scrub-event"),
    entry
      ? [
          h("strong", {}, `#${entry.version} `),
          `${when(entry)}: `,
          believed(verdict) ? entry.text : withheld(verdict),
        ]
      : "",
  );
  for (const li of $("events").querySelectorAll("li[data-version]:not(.talk)")) {
    const current = Number(li.dataset.version) === wanted;
    li.classList.toggle("chosen", current);
    li.querySelector("button").setAttribute("aria-current", current ? "step" : "false");
    if (current) showWithin($("events"), li);
  }
  clearTimeout(timer);
  timer = setTimeout(showCourt, 120);
}

async function showCourt() {
  const version = wanted;
  if (version === shown) return;
  try {
    const court = await call(
      "GET",
      `/api/games/${gameId}/versions/${version}`,
      undefined,
      tokenFor(gameId),
    );
    if (version !== wanted) return;
    shown = version;
    witness.checkpoint(court.checkpoint);
    const names = new Names(court);
    const next = entries[version];
    renderSummary($("summary"), court, names, new Clock(), {
      next: next ? `#${next.version} ${next.text}` : null,
    });
    const election = court.election;
    fill(
      $("past-election"),
      election
        ? h(
            "p",
            { "data-testid": "past-election" },
            h("strong", {}, "Election under way: "),
            `${names.title(election.title)} (${election.stage})`,
            election.candidates.length
              ? `; candidates ${election.candidates.map((c) => names.noble(c.noble)).join(", ")}`
              : "",
          )
        : h("p", { class: "muted", "data-testid": "past-election" }, "No election under way."),
    );
    renderThrone($("throne"), court, names);
    renderHouses($("houses"), court, names, null);
    $("houses").dataset.version = String(version);
  } catch (error) {
    say(notice, errorText(error), "error");
  }
}

// What this check covered when the server had checked part of the log before.
function checkedSince({ since, records }) {
  if (since >= records)
    return `the server had checked all ${records} records when last asked; none was added since`;
  return `checked from version ${since + 1} to ${records}: the server checked the versions before when last asked`;
}

// What this page found itself, in place of any "verified": never shown beside a failure. A
// failure the server's own check names stays: it is red already, and says more.
function showFailed(out, found) {
  if (out.dataset.check && !["ok", "witness"].includes(out.dataset.check)) return;
  out.className = "notice error";
  out.dataset.check = "witness";
  fill(
    out,
    h("strong", {}, `✘ This page finds the record changed at version ${found.version}: `),
    "the hashes it recomputed itself do not match (see the banner above).",
  );
}

// The server's deep check of the log so far (docs/disputes.md, "What verify checks"): the
// chain, every commitment, tally and die roll, the court rules at every version, ids and
// names; shown once this page's own check of every entry has passed (static/lib/witness.js), and
// never over its failure.
async function verify() {
  const out = $("verification");
  out.textContent = "Checking the record…";
  try {
    const result = await call("GET", `/api/games/${gameId}/verify`);
    await headChecked;
    await witness.queue;
    if (witness.mismatch && result.ok) {
      showFailed(out, witness.mismatch);
      return;
    }
    out.className = result.ok ? "notice success" : "notice error";
    out.dataset.check = result.ok ? "ok" : result.check;
    fill(
      out,
      result.ok
        ? [
            h("strong", {}, "✔ Record verified: "),
            `${result.records} records, each linked to the one before; every revealed marker and bid opens its commitment, every count and die roll recomputes, and the court keeps its rules at every version. Head `,
            h("code", {}, result.head.slice(0, 16)),
            "…",
            ...(result.since ? [h("span", { class: "muted" }, ` (${checkedSince(result)})`)] : []),
            ` This page recomputed all ${entries.length} hashes itself and checked the server's signature of the head.`,
            ...result.notes.map((note) => h("span", { class: "muted" }, ` (${note}.)`)),
          ]
        : [
            h("strong", {}, `✘ The record fails the ${result.check} check `),
            `at version ${result.bad_version}: ${result.reason}`,
          ],
    );
  } catch (error) {
    say(out, errorText(error), "error");
  }
}

async function download() {
  try {
    const token = tokenFor(gameId);
    const response = await fetch(`/api/games/${gameId}/export`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    if (!response.ok)
      throw Object.assign(new Error((await response.json()).message), { code: response.status });
    const url = URL.createObjectURL(await response.blob());
    const link = h("a", { href: url, download: `${gameId}.jsonl` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    say(
      notice,
      "The log was downloaded. Your own private parts are in it; nobody else's.",
      "success",
    );
  } catch (error) {
    say(notice, errorText(error), "error");
  }
}

scrubber.addEventListener("input", onScrub);
showAll.addEventListener("change", filter);
$("scrub-back").addEventListener("click", () => choose(Math.max(1, Number(scrubber.value) - 1)));
$("scrub-forward").addEventListener("click", () =>
  choose(Math.min(entries.length, Number(scrubber.value) + 1)),
);
$("verify").addEventListener("click", verify);
$("export").addEventListener("click", download);

(async () => {
  try {
    const head = await loadEntries();
    // The newest record's signed checkpoint: what this device saw of the record is checked
    // against it, as the court page does.
    headChecked = call("GET", `/api/games/${gameId}/chain?from=${head}&to=${head}`)
      .then((page) => witness.finishShown(page.checkpoint))
      .catch(() => {});
    await loadTalk(await loadHead());
    scrubber.max = String(head);
    drawEntries();
    compare.prefill(head);
    choose(head);
    // Each entry is drawn once its player's signature checked ("checking…" until then).
    witness.queue.then(() => {
      drawEntries();
      onScrub();
    });
  } catch (error) {
    say(notice, errorText(error), "error");
  }
  verify();
})();
