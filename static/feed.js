// The latest events of the game, one sentence each, newest first.
import { fill, h } from "./dom.js";

export class Feed {
  constructor(el, limit = 30) {
    this.el = el;
    this.limit = limit;
    this.records = new Map();
  }

  add(records) {
    for (const r of records) this.records.set(r.version, r);
    const versions = [...this.records.keys()].sort((a, b) => b - a);
    for (const old of versions.slice(this.limit)) this.records.delete(old);
    this.render();
  }

  lastOf(type) {
    return (
      [...this.records.values()]
        .filter((r) => r.type === type)
        .sort((a, b) => b.version - a.version)[0] ?? null
    );
  }

  render() {
    const records = [...this.records.values()].sort((a, b) => b.version - a.version);
    fill(
      this.el,
      records.map((r) =>
        h(
          "li",
          { "data-version": r.version },
          h("span", { class: "version" }, `#${r.version}`),
          " ",
          r.text,
        ),
      ),
    );
  }
}
