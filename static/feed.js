// The latest events of the game, one sentence each, newest first. The clocks variant's start
// and stop lines (several per move) fold under the event that caused them, so that they do not
// push the events themselves out of the list.
import { fill, h } from "./dom.js";

const CLOCK = new Set(["ClockStarted", "ClockStopped"]);

export class Feed {
  // `limit`: how many records the page fetches on opening, and how many events it lists;
  // `markOf(version)`: "unsigned" for a move no device of its player signs (static/witness.js).
  constructor(el, limit = 30, markOf = () => undefined) {
    this.el = el;
    this.limit = limit;
    this.markOf = markOf;
    this.records = new Map();
  }

  add(records) {
    for (const r of records) this.records.set(r.version, r);
    const events = [...this.records.values()]
      .filter((r) => !CLOCK.has(r.type))
      .sort((a, b) => b.version - a.version);
    const oldest = events[this.limit - 1]?.version;
    if (oldest !== undefined)
      for (const version of [...this.records.keys()])
        if (version < oldest) this.records.delete(version);
    this.render();
  }

  lastOf(type) {
    return (
      [...this.records.values()]
        .filter((r) => r.type === type)
        .sort((a, b) => b.version - a.version)[0] ?? null
    );
  }

  // Each event with the clock lines that followed it (until the next event), newest first.
  render() {
    const groups = [];
    for (const r of [...this.records.values()].sort((a, b) => a.version - b.version)) {
      const last = groups.at(-1);
      if (CLOCK.has(r.type) && last) last.clocks.push(r);
      else groups.push({ event: r, clocks: [] });
    }
    fill(
      this.el,
      groups.reverse().map(({ event, clocks }) =>
        h(
          "li",
          { "data-version": event.version },
          h("span", { class: "version" }, `#${event.version}`),
          " ",
          event.text,
          this.markOf(event.version) === "unsigned" &&
            h(
              "span",
              {
                class: "unsigned",
                "data-testid": "unsigned",
                title: "No device of this player signs his moves: only the server vouches for it.",
              },
              " · unsigned",
            ),
          clocks.length > 0 &&
            h(
              "details",
              { class: "clock-lines" },
              h(
                "summary",
                {},
                clocks.length === 1 ? "1 clock line" : `${clocks.length} clock lines`,
              ),
              h(
                "ul",
                {},
                clocks.map((c) =>
                  h(
                    "li",
                    { "data-version": c.version },
                    h("span", { class: "version" }, `#${c.version}`),
                    " ",
                    c.text,
                  ),
                ),
              ),
            ),
        ),
      ),
    );
  }
}
