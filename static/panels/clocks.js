// The players' clocks of the clocks variant (R-4.3): each player's time left per kind of step,
// the kind of the step under way first and marked, counting down live while his clock runs.

import { countdown, format } from "../lib/countdown.js";
import { h } from "../lib/dom.js";

const KINDS = {
  candidacy: "Candidacy",
  ballot: "Ballot",
  decree: "Decree steps",
  title_choice: "Taking a title",
  purchase: "Purchases",
};

function playerClock(court, seat) {
  return court.clocks?.players.find((p) => p.seat === seat) ?? null;
}

// Whether a seat's turn in a step of `kind` ended on the clock: his bank for it is empty and
// not running (a player who acts in time keeps some time, and earns the increment).
export function ranOut(court, seat, kind) {
  const mine = playerClock(court, seat);
  return Boolean(mine && !mine.running && kind in mine.left && mine.left[kind] <= 0);
}

// "Cat ✓" for a turn taken, "Cat ⌛ time ran out" for one the clock ended.
export function doneMark(court, seat, kind) {
  return ranOut(court, seat, kind) ? " ⌛ time ran out" : " ✓";
}

// One player's banks, for his House's card: the current kind first, then the increment. Without a `clock` (a past
// version, in the history) nothing counts down: the banks are shown as they last stopped.
export function playerClocks(court, seat, clock) {
  const mine = playerClock(court, seat);
  if (!mine) return null;
  const current = court.clocks.kind;
  const kinds = Object.keys(mine.left).sort(
    (a, b) => Number(b === current) - Number(a === current),
  );
  return h(
    "p",
    { class: "clocks", "data-testid": `clocks-${seat}` },
    h("strong", {}, "Time left: "),
    kinds.map((kind, i) => {
      const running = mine.running?.kind === kind;
      const left =
        running && clock
          ? countdown(mine.running.runs_out, clock)
          : h("span", {}, format(mine.left[kind]));
      return h(
        "span",
        {
          class: `clock${kind === current ? " current" : ""}${running ? " running" : ""}`,
          "data-testid": `clock-${seat}-${kind}`,
        },
        i ? " · " : "",
        `${KINDS[kind] ?? kind}: `,
        left,
      );
    }),
    increment(court, seat),
  );
}

// The Fischer increment, when the game has one: every move's time besides the bank, kept in
// the bank as far as the move did not use it.
function increment(court, seat) {
  const seconds = court.clocks.increment;
  if (!seconds) return "";
  return h(
    "span",
    { class: "clock-increment", "data-testid": `clock-increment-${seat}` },
    ` · +${seconds} s each move`,
  );
}

// The summary's line: the clocks running now, counting down.
export function runningClocks(court, names, clock) {
  const running = court.clocks?.players.filter((p) => p.running) ?? [];
  if (!running.length) return null;
  return [
    h("dt", {}, "Clock"),
    h(
      "dd",
      { "data-testid": "running-clocks", class: "running-clocks" },
      running.map((p, i) =>
        h(
          "span",
          { "data-testid": `running-clock-${p.seat}` },
          i ? " · " : "",
          `${names.seat(p.seat)} (${(KINDS[p.running.kind] ?? p.running.kind).toLowerCase()}): `,
          countdown(p.running.runs_out, clock),
        ),
      ),
    ),
  ];
}
