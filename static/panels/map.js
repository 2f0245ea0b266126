// The realm's map: the regions, their villages and Fiefdoms drawn from the map's drawing
// (GET /api/map), each village in the colours of the House that holds it, a Sept marked. The
// host or the game master clicks villages, or a whole region, to give them to a House, reviews
// the changes and records them in one `record_villages`.
import { call } from "../lib/api.js";
import { fill, h, listen, swatch } from "../lib/dom.js";
import { NAMES } from "../lib/sections.js";

// The SVG namespace, as the HTML parser gives it to an <svg> (no address is written in a page).
const SVG = (() => {
  const t = document.createElement("template");
  t.innerHTML = "<svg></svg>";
  return t.content.firstChild.namespaceURI;
})();
const SEPT = "✚";

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) listen(el, key.slice(2), value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity))
    if (child != null) el.append(child instanceof Node ? child : String(child));
  return el;
}

// Enter or Space on a focused shape acts as a click.
function pressable(action) {
  return {
    onclick: action,
    onkeydown: (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        action();
      }
    },
  };
}

// The sections of the court view this panel reads (lib/sections.js).
export const MAP_READS = ["game", "facts", ...NAMES];

export class RealmMap {
  constructor(el, ctx) {
    this.el = el;
    this.ctx = ctx;
    this.drawing = null;
    this.changes = new Map(); // village -> house (null: nobody), not yet recorded
    this.house = null;
    call("GET", "/api/map")
      .then((drawing) => {
        this.drawing = drawing;
        this.ctx.redraw();
      })
      .catch(() => fill(el, h("p", { class: "muted" }, "The map could not be loaded.")));
  }

  // Draws the map into `el` (the panel, or the new draw lib/morph.js turns it into).
  draw(court, names, el = this.el) {
    if (!this.drawing) return;
    this.court = court;
    this.names = names;
    const recorder = (court.facts ?? []).some((f) => f.fact === "village_control");
    if (!recorder) this.changes.clear();
    const inPlay = court.houses.filter((x) => x.seat !== null);
    if (this.house !== null && !inPlay.some((x) => x.id === this.house)) this.house = null;
    fill(
      el,
      h("h2", { id: "map-heading" }, "The realm"),
      recorder
        ? h(
            "p",
            { class: "muted", id: "map-help" },
            "Pick a House, then click villages or a whole region (or press Enter on them); review the changes and record them at once.",
          )
        : null,
      this.svg(recorder),
      this.legend(inPlay),
      recorder ? this.recording(inPlay) : null,
      this.text(),
    );
  }

  holder(village) {
    return this.changes.has(village.id) ? this.changes.get(village.id) : village.controller;
  }

  svg(recorder) {
    const { width, height } = this.drawing;
    const at = new Map(this.drawing.villages.map((v) => [v.id, v.at]));
    const outline = new Map(this.drawing.regions.map((r) => [r.id, r]));
    return s(
      "svg",
      {
        viewBox: `0 0 ${width} ${height}`,
        class: "realm-map",
        role: "group",
        "aria-label": "Map of the realm",
        "aria-describedby": recorder ? "map-help" : null,
      },
      this.court.regions.map((region) => {
        const drawn = outline.get(region.id);
        if (!drawn) return null;
        const act = recorder ? () => this.pickRegion(region) : () => {};
        return s(
          "g",
          { class: "region" },
          s("polygon", {
            id: `region-${region.id}`,
            points: drawn.outline.map((p) => p.join(",")).join(" "),
            tabindex: 0,
            role: recorder ? "button" : "img",
            "aria-label": this.regionName(region),
            class: "region-shape",
            ...pressable(act),
          }),
          s(
            "text",
            {
              x: drawn.label[0],
              y: drawn.label[1],
              class: "region-label",
              "text-anchor": "middle",
              "aria-hidden": "true",
            },
            region.name,
          ),
          this.fiefdoms(region, at),
          region.villages.map((v) =>
            at.has(v.id) ? this.village(region, v, at.get(v.id), recorder) : null,
          ),
        );
      }),
    );
  }

  fiefdoms(region, at) {
    const groups = new Map();
    for (const v of region.villages)
      if (at.has(v.id)) groups.set(v.fiefdom, [...(groups.get(v.fiefdom) ?? []), at.get(v.id)]);
    const names = new Map(this.drawing.fiefdoms.map((f) => [f.id, f.name]));
    return [...groups].map(([id, points]) => {
      const xs = points.map((p) => p[0]),
        ys = points.map((p) => p[1]),
        pad = 14;
      const x = Math.min(...xs) - pad,
        y = Math.min(...ys) - pad;
      return s(
        "rect",
        {
          class: "fiefdom",
          x,
          y,
          width: Math.max(...xs) - x + pad,
          height: Math.max(...ys) - y + pad,
          rx: 10,
          "aria-hidden": "true",
        },
        s("title", {}, `Fiefdom of ${names.get(id) ?? id}`),
      );
    });
  }

  village(region, v, [x, y], recorder) {
    const holder = this.holder(v);
    const [c1 = "#f4f1ea", c2 = "#6b7280"] = holder ? this.names.colours(holder) : [];
    const pending = this.changes.has(v.id);
    const act = recorder ? () => this.pickVillage(v) : () => {};
    return s(
      "g",
      { class: `village${pending ? " pending" : ""}` },
      s("circle", {
        id: `village-${v.id}`,
        cx: x,
        cy: y,
        r: v.id === region.principal ? 9 : 7,
        fill: c1,
        stroke: c2,
        "stroke-width": pending ? 4 : 2,
        tabindex: 0,
        role: recorder ? "button" : "img",
        "aria-label": this.villageName(region, v),
        "data-village": v.id,
        "data-holder": holder ?? "",
        ...pressable(act),
      }),
      // The Sept's mark sits on its village's own circle: drawn beside it, it was nearer a
      // neighbour where villages crowd (King's Landing's, by Duskendale).
      v.sept
        ? s(
            "text",
            {
              x,
              y: y + 3.5,
              class: "sept",
              fill: c2,
              "text-anchor": "middle",
              "aria-hidden": "true",
            },
            SEPT,
          )
        : null,
      s(
        "text",
        { x, y: y + 18, class: "village-label", "text-anchor": "middle", "aria-hidden": "true" },
        v.name,
      ),
    );
  }

  villageName(region, v) {
    const holder = this.holder(v);
    const held = holder ? `held by ${this.names.house(holder)}` : "held by nobody";
    const change = this.changes.has(v.id) ? " (change not yet recorded)" : "";
    return `${v.name}, ${region.name}: ${held}${v.sept ? ", Sept" : ""}${change}`;
  }

  regionName(region) {
    const counts = new Map();
    for (const v of region.villages)
      counts.set(this.holder(v), (counts.get(this.holder(v)) ?? 0) + 1);
    const parts = [...counts].map(([house, n]) => `${n} held by ${this.names.house(house)}`);
    return `${region.name}, ${region.villages.length} villages: ${parts.join(", ")}`;
  }

  // A village clicked: given to the House picked (also when it waited for another House), or
  // taken back out of the changes when it waited for this one or is this House's already.
  pickVillage(v) {
    if (this.changes.get(v.id) === this.house || v.controller === this.house)
      this.changes.delete(v.id);
    else this.changes.set(v.id, this.house);
    this.ctx.redraw();
    document.getElementById(`village-${v.id}`)?.focus();
  }

  pickRegion(region) {
    for (const v of region.villages) {
      if (v.controller === this.house) this.changes.delete(v.id);
      else this.changes.set(v.id, this.house);
    }
    this.ctx.redraw();
    document.getElementById(`region-${region.id}`)?.focus();
  }

  legend(inPlay) {
    return h(
      "ul",
      { class: "map-legend", "aria-label": "Legend" },
      inPlay.map((x) => h("li", {}, swatch(x.colours), ` ${x.name}`)),
      h("li", {}, swatch(["#f4f1ea", "#6b7280"]), " nobody"),
      h("li", {}, h("span", { "aria-hidden": "true" }, SEPT), " a Sept"),
      h("li", {}, "Large circle: the region's Principal village; dashed frame: a Fiefdom"),
    );
  }

  recording(inPlay) {
    const names = this.names;
    const villages = new Map(this.court.regions.flatMap((r) => r.villages.map((v) => [v.id, v])));
    const status = h("p", {
      class: "form-status",
      role: "status",
      id: "record_villages-status",
      hidden: true,
    });
    const changes = [...this.changes].filter(([id]) => villages.has(id));
    const submit = async (event) => {
      event.preventDefault();
      const payload = {
        changes: changes.map(([village, house]) => ({ village, house })),
        cause: event.target.elements.cause.value,
      };
      const ack = await this.ctx.send("record_villages", payload, status);
      if (ack) {
        this.changes.clear();
        this.ctx.redraw();
      }
    };
    return h(
      "form",
      { class: "map-record", id: "map-record", onsubmit: submit },
      h(
        "label",
        { for: "map-house" },
        "Give to ",
        h(
          "select",
          {
            id: "map-house",
            onchange: (e) => {
              this.house = JSON.parse(e.target.value);
            },
          },
          [null, ...inPlay.map((x) => x.id)].map((id) =>
            h(
              "option",
              { value: JSON.stringify(id), selected: id === this.house },
              names.house(id),
            ),
          ),
        ),
      ),
      h("h3", {}, `Changes to record (${changes.length})`),
      changes.length
        ? h(
            "ul",
            { id: "map-changes" },
            changes.map(([id, house]) =>
              h(
                "li",
                {},
                `${names.village(id)}: ${names.house(villages.get(id).controller)} → ${names.house(house)} `,
                h(
                  "button",
                  {
                    type: "button",
                    "aria-label": `Leave ${names.village(id)} out`,
                    onclick: () => {
                      this.changes.delete(id);
                      this.ctx.redraw();
                    },
                  },
                  "Leave out",
                ),
              ),
            ),
          )
        : h("p", { class: "muted" }, "None yet: click villages or a region on the map."),
      h(
        "label",
        { for: "map-cause" },
        "Cause ",
        h("input", {
          type: "text",
          id: "map-cause",
          name: "cause",
          required: true,
          maxlength: 120,
          value: "at the table",
        }),
      ),
      " ",
      h(
        "button",
        { type: "submit", id: "map-submit" },
        `Record ${changes.length} change${changes.length === 1 ? "" : "s"}`,
      ),
      status,
    );
  }

  // The map as text, for a screen reader or a narrow screen.
  text() {
    return h(
      "details",
      { class: "map-text", id: "map-text" },
      h("summary", {}, "The map as text"),
      this.court.regions.map((region) =>
        h(
          "section",
          {},
          h("h3", {}, region.name),
          h(
            "ul",
            {},
            region.villages.map((v) => h("li", {}, this.villageName(region, v))),
          ),
        ),
      ),
    );
  }
}
