// The host's panel: close the phases played at the table, and record what happened there
// (facts and Court Events; docs/protocol.md lists each message). Only the facts the court
// view lists as possible now are offered, each with the choices the rules leave open.

import { confirmed, fill, h, listen, onPage } from "../lib/dom.js";
import { masterLink } from "../lib/seat_store.js";
import { NAMES } from "../lib/sections.js";

// message -> [fact kind of the court view, label, [field, input kind, label]...]; a field the
// view lists choices for is a list, the others are typed.
const FACTS = {
  record_village: [
    "village_control",
    "Who controls a village",
    [
      ["village", "", "Village"],
      ["house", "", "House"],
      ["cause", "text", "Cause"],
    ],
  ],
  record_gold: [
    "gold",
    "Gold Dragons won or lost",
    [
      ["house", "", "House"],
      ["amount", "gold", "Amount (negative for a loss)"],
      ["cause", "text", "Cause"],
    ],
  ],
  record_capture: [
    "capture",
    "A Noble taken captive",
    [
      ["noble", "", "Noble"],
      ["house", "", "Captor"],
      ["by", "", "Taken by"],
      ["cause", "text", "Cause"],
    ],
  ],
  record_release: [
    "release",
    "A captive released",
    [
      ["noble", "", "Captive"],
      ["cause", "text", "Cause"],
    ],
  ],
  record_escape: [
    "escape",
    "A captive escaped",
    [
      ["noble", "", "Captive"],
      ["cause", "text", "Cause"],
    ],
  ],
  record_death: [
    "death",
    "A Noble died",
    [
      ["noble", "", "Noble"],
      ["kind", "", "Kind of death"],
      ["cause", "text", "Cause"],
    ],
  ],
  add_noble: [
    "new_noble",
    "Court Event: a new Noble",
    [
      ["house", "", "House"],
      ["noble", "id", "Id (letters, digits, dashes)"],
      ["name", "name", "Name"],
      ["gender", "", "Lord or Lady"],
      ["cause", "text", "Cause"],
    ],
  ],
  join_small_council: [
    "join_the_small_council",
    "Court Event: a Warden joins the Small Council",
    [
      ["noble", "", "Warden"],
      ["title", "", "Master title"],
      ["cause", "text", "Cause"],
    ],
  ],
  grant_mother_of_dragons: [
    "mother_of_dragons",
    "Court Event: Mother of Dragons",
    [
      ["noble", "", "Lady"],
      ["cause", "text", "Cause"],
    ],
  ],
  heir_born: [
    "heir_born",
    "Court Event: the Heir",
    [
      ["noble", "", "Lord"],
      ["cause", "text", "Cause"],
    ],
  ],
  record_wall_supplies: [
    "wall_supplies",
    "The Lord Commander's Wall supplies",
    [
      ["amount", "supplies", "Gold Dragons"],
      ["house", "", "To House"],
      ["cause", "text", "Cause"],
    ],
  ],
};
// Facts no later fact undoes: the panel asks before recording them.
const IRREVERSIBLE = new Set([
  "record_death",
  "add_noble",
  "grant_mother_of_dragons",
  "heir_born",
  "join_small_council",
]);

function label(field, value, names) {
  if (field === "noble" || field === "by")
    return value === null
      ? "nobody named"
      : `${names.noble(value)} (${names.house(names.houseOfNoble(value))})`;
  if (field === "house") return names.house(value);
  if (field === "title") return names.title(value);
  if (field === "gender") return value === "lord" ? "Lord" : "Lady";
  if (field === "village") {
    const v = names.villages.get(value);
    return v
      ? `${v.name} (${v.region})${v.controller ? ` — held by ${names.house(v.controller)}` : ""}`
      : value;
  }
  return String(value);
}

function input(kind, id) {
  if (kind === "gold")
    return h("input", { type: "number", id, min: -1000, max: 1000, required: true, value: 1 });
  if (kind === "supplies")
    return h("input", { type: "number", id, min: 1, max: 100, required: true, value: 1 });
  const max = kind === "text" ? 120 : 40;
  return h("input", {
    type: "text",
    id,
    required: true,
    maxlength: max,
    value: kind === "text" ? "at the table" : "",
  });
}

// The choices of each listed field; a field depending on another follows that one's value.
function chooser(message, field, fact, names, controls) {
  const select = h("select", { id: `${message}-${field}`, name: field });
  const depends = fact.depends[field];
  // Run as the form is drawn, on the nodes drawn; later on the page's (lib/dom.js `onPage`).
  const refill = () => {
    const shown = onPage(select);
    const values = depends
      ? (depends.choices[JSON.parse(onPage(controls[depends.on]).value)] ?? [])
      : fact.choices[field];
    const kept = shown.value;
    fill(
      shown,
      values.map((value) =>
        h("option", { value: JSON.stringify(value) }, label(field, value, names)),
      ),
    );
    if ([...shown.options].some((o) => o.value === kept)) shown.value = kept;
    shown.dispatchEvent(new Event("change"));
  };
  return { select, refill, on: depends?.on };
}

function factForm(message, [, title, fields], fact, names, ctx) {
  const controls = {},
    refills = [];
  for (const [field, kind] of fields) {
    if (kind) {
      controls[field] = input(kind, `${message}-${field}`);
      continue;
    }
    const c = chooser(message, field, fact, names, controls);
    controls[field] = c.select;
    refills.push(c);
  }
  for (const c of refills) if (c.on) listen(controls[c.on], "change", c.refill);
  for (const c of refills) if (!c.on) c.refill();
  const status = h("p", {
    class: "form-status",
    role: "status",
    id: `${message}-status`,
    hidden: true,
  });
  const submit = async (event) => {
    event.preventDefault();
    const payload = Object.fromEntries(
      fields.map(([field, kind]) => {
        const control = onPage(controls[field]);
        if (control.tagName === "SELECT") return [field, JSON.parse(control.value)];
        return [
          field,
          kind === "gold" || kind === "supplies" ? Number(control.value) : control.value,
        ];
      }),
    );
    if (
      IRREVERSIBLE.has(message) &&
      !(await confirmed(`${title}: ${describe(payload, names)}. This cannot be undone. Record it?`))
    )
      return;
    ctx.send(message, payload, status);
  };
  return h(
    "details",
    { class: "fact", "data-message": message },
    h("summary", {}, title),
    h(
      "form",
      { onsubmit: submit },
      fields.map(([field, , text]) =>
        h("label", { for: controls[field].id }, `${text} `, controls[field]),
      ),
      h("button", { type: "submit" }, "Record"),
      status,
    ),
  );
}

function describe(payload, names) {
  return Object.entries(payload)
    .filter(([k]) => k !== "cause")
    .map(([k, v]) => label(k, v, names))
    .join(", ");
}

function closeButtons(court, names, ctx) {
  const has = (message) => court.moves.some((m) => m.message === message);
  if (!has("advance_phase"))
    return h(
      "p",
      { class: "muted" },
      "The court is playing a step; the phase closes when it ends.",
    );
  return [
    has("close_table_phases")
      ? h(
          "button",
          {
            type: "button",
            id: "move-close_table_phases",
            "data-message": "close_table_phases",
            onclick: () => ctx.send("close_table_phases", {}),
          },
          `Close ${names.phase(court.game.phase)} and the table's phases after it`,
        )
      : null,
    " ",
    h(
      "button",
      {
        type: "button",
        id: "move-advance_phase",
        "data-message": "advance_phase",
        onclick: () => ctx.send("advance_phase", {}),
      },
      `Close phase ${names.phase(court.game.phase)}`,
    ),
  ];
}

// The sections of the court view this panel reads (lib/sections.js).
export const HOST_READS = ["game", "facts", "moves", ...NAMES];

export function renderHost(el, court, names, ctx) {
  const host = court.viewer.host || court.viewer.role === "game_master";
  el.hidden = !host || court.game.status !== "playing";
  if (el.hidden) {
    fill(el);
    return;
  }
  const possible = new Map((court.facts ?? []).map((f) => [f.fact, f]));
  const facts = Object.entries(FACTS).filter(([, [kind]]) => possible.has(kind));
  const link = court.viewer.host && court.game.game_master_name ? masterLink(court.game.id) : null;
  fill(
    el,
    h(
      "h2",
      { id: "host-heading" },
      court.viewer.host ? "Host" : `Game master: ${court.game.game_master_name}`,
    ),
    link
      ? h(
          "p",
          { class: "master-link" },
          `Send this link to ${court.game.game_master_name}, your game master; it lets its holder record facts: `,
          h("input", {
            type: "text",
            readonly: true,
            value: link,
            "aria-label": "Game master's link",
            id: "master-link",
            onfocus: (e) => e.target.select(),
          }),
        )
      : null,
    h("div", { class: "move" }, closeButtons(court, names, ctx)),
    h("h3", {}, "Record what happened at the table"),
    h(
      "p",
      { class: "muted" },
      "Only what the rules allow now is offered. Record villages on the map, several at once.",
    ),
    facts.map(([message, spec]) => factForm(message, spec, possible.get(spec[0]), names, ctx)),
  );
}
