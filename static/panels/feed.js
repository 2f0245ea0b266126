// The latest events of the game, one sentence each, newest first. The clocks variant's start
// and stop lines (several per move) fold under the event that caused them, so that they do not
// push the events themselves out of the list.
import { fill, h } from "../lib/dom.js";
import { believed, unsignedMark, withheld } from "./move_mark.js";

const CLOCK = new Set(["ClockStarted", "ClockStopped"]);

export class Feed {
  // `limit`: how many records the page fetches on opening, and how many events it lists;
  // `verdictOf(version)`: the witness's check of the record against its player's keys
  // (static/lib/witness.js `verdict`); a record is drawn only once that check passed.
  constructor(el, limit = 30, verdictOf = () => "checked") {
    this.el = el;
    this.limit = limit;
    this.verdictOf = verdictOf;
    // Moves this page signed and sent whose record never came within the ack's time, by nonce:
    // what a server that withholds a move leaves the player to show (docs/disputes.md).
    this.unrecorded = new Map();
    this.records = new Map();
  }

  // A signed move sent and never acknowledged: shown until its `MoveSigned` record arrives.
  sentNotRecorded(nonce, label) {
    this.unrecorded.set(nonce, label);
    this.render();
  }

  add(records) {
    for (const r of records) {
      this.records.set(r.version, r);
      if (r.type === "MoveSigned") this.unrecorded.delete(r.data?.nonce);
    }
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
    const unrecorded = [...this.unrecorded].map(([nonce, label]) =>
      h(
        "li",
        { class: "unrecorded", "data-testid": "unrecorded", "data-nonce": nonce },
        h("strong", {}, "Sent, not recorded: "),
        `${label}. Your device signed and sent it, and no record of it came back: keep this page's evidence if it never appears.`,
      ),
    );
    fill(
      this.el,
      unrecorded,
      groups.reverse().map(({ event, clocks: all }) => {
        const verdict = this.verdictOf(event.version);
        const shown = believed(verdict);
        const clocks = all.filter((c) => believed(this.verdictOf(c.version)));
        return h(
          "li",
          { "data-version": event.version, "data-verdict": verdict },
          h("span", { class: "version" }, `#${event.version}`),
          " ",
          shown ? event.text : withheld(verdict),
          shown && unsignedMark(verdict),
          shown &&
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
        );
      }),
    );
  }
}
