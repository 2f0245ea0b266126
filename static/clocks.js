// The players' clocks of the clocks variant (R-4.3): each player's time left per kind of step,
// the kind of the step under way first and marked, counting down live while his clock runs.

import { countdown, format } from "./countdown.js";
import { h } from "./dom.js";

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

// One player's banks, for his House's card: the current kind first. Without a `clock` (a past
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
