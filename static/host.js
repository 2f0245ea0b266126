// The host's panel: close the phase played at the table, and record what happened there
// (facts and Court Events; docs/protocol.md lists each message).
import { masterLink } from "./api.js";
import { h, fill } from "./dom.js";

const DEATHS = ["battle", "justice", "assassination", "uprising", "wall", "other"];

// message -> [label, [field, kind, label]...]; a kind names where the choices come from.
const FACTS = {
  record_village: ["Who controls a village", [["village", "village", "Village"], ["house", "house?", "House"], ["cause", "text", "Cause"]]],
  record_gold: ["Gold Dragons won or lost", [["house", "house", "House"], ["amount", "gold", "Amount (negative for a loss)"], ["cause", "text", "Cause"]]],
  record_capture: ["A Noble taken captive", [["noble", "noble", "Noble"], ["house", "house", "Captor"], ["by", "noble?", "Taken by"], ["cause", "text", "Cause"]]],
  record_release: ["A captive released", [["noble", "captive", "Captive"], ["cause", "text", "Cause"]]],
  record_escape: ["A captive escaped", [["noble", "captive", "Captive"], ["cause", "text", "Cause"]]],
  record_death: ["A Noble died", [["noble", "noble", "Noble"], ["kind", "death", "Kind of death"], ["cause", "text", "Cause"]]],
  add_noble: ["Court Event: a new Noble", [["house", "house", "House"], ["noble", "id", "Id (letters, digits, dashes)"], ["name", "name", "Name"], ["gender", "gender", "Lord or Lady"], ["cause", "text", "Cause"]]],
  join_small_council: ["Court Event: a Warden joins the Small Council", [["noble", "noble", "Warden"], ["title", "master", "Master title"], ["cause", "text", "Cause"]]],
  grant_mother_of_dragons: ["Court Event: Mother of Dragons", [["noble", "lady", "Lady"], ["cause", "text", "Cause"]]],
  heir_born: ["Court Event: the Heir", [["noble", "lord", "Lord"], ["cause", "text", "Cause"]]],
  record_wall_supplies: ["The Lord Commander's Wall supplies", [["amount", "supplies", "Gold Dragons"], ["house", "house", "To House"], ["cause", "text", "Cause"]]],
};

function choices(kind, court, names) {
  const living = court.houses.flatMap((house) => house.nobles).filter((n) => n.status !== "dead");
  const nobles = (list) => list.map((n) => [n.id, `${n.name} (${names.house(n.house)})`]);
  switch (kind) {
    case "village": return court.regions.flatMap((r) => r.villages.map((v) => [v.id, `${v.name} (${r.name})${v.controller ? ` — held by ${names.house(v.controller)}` : ""}`]));
    case "house": return court.houses.filter((x) => x.seat !== null).map((x) => [x.id, x.name]);
    case "house?": return [[null, "nobody"], ...choices("house", court, names)];
    case "noble": return nobles(living);
    case "noble?": return [[null, "nobody named"], ...nobles(living)];
    case "captive": return nobles(living.filter((n) => n.status === "captive"));
    case "lady": return nobles(living.filter((n) => n.gender === "lady"));
    case "lord": return nobles(living.filter((n) => n.gender === "lord"));
    case "death": return DEATHS.map((d) => [d, d]);
    case "gender": return [["lord", "Lord"], ["lady", "Lady"]];
    case "master": return court.titles.filter((t) => t.id.startsWith("master-")).map((t) => [t.id, `${t.name}${t.holder ? ` (held by ${names.noble(t.holder)})` : ""}`]);
    default: return null;
  }
}

function input(kind, id) {
  if (kind === "gold") return h("input", { type: "number", id, min: -1000, max: 1000, required: true, value: 1 });
  if (kind === "supplies") return h("input", { type: "number", id, min: 1, max: 100, required: true, value: 1 });
  const max = kind === "text" ? 120 : 40;
  return h("input", { type: "text", id, required: true, maxlength: max, value: kind === "text" ? "at the table" : "" });
}

function factForm(message, [label, fields], court, names, ctx) {
  const controls = fields.map(([field, kind]) => {
    const id = `${message}-${field}`;
    const options = choices(kind, court, names);
    if (options === null) return input(kind, id);
    return h("select", { id, name: field }, options.map(([value, text]) => h("option", { value: JSON.stringify(value) }, text)));
  });
  const submit = (event) => {
    event.preventDefault();
    const payload = Object.fromEntries(fields.map(([field, kind], i) => {
      const control = controls[i];
      if (control.tagName === "SELECT") return [field, JSON.parse(control.value)];
      return [field, kind === "gold" || kind === "supplies" ? Number(control.value) : control.value];
    }));
    ctx.send(message, payload);
  };
  return h("details", { class: "fact", "data-message": message },
    h("summary", {}, label),
    h("form", { onsubmit: submit },
      fields.map(([field, , text], i) => h("label", { for: controls[i].id }, `${text} `, controls[i])),
      h("button", { type: "submit" }, "Record")));
}

export function renderHost(el, court, names, ctx) {
  const host = court.viewer.host || court.viewer.role === "game_master";
  el.hidden = !host || court.game.status !== "playing";
  if (el.hidden) { fill(el); return; }
  const advance = court.moves.some((m) => m.message === "advance_phase");
  const facts = Object.entries(FACTS).filter(([message]) => message !== "record_wall_supplies" || court.game.variants.nights_watch);
  const link = court.viewer.host && court.game.game_master_name ? masterLink(court.game.id) : null;
  fill(el,
    h("h2", { id: "host-heading" }, court.viewer.host ? "Host" : `Game master: ${court.game.game_master_name}`),
    link ? h("p", { class: "master-link" },
      `Send this link to ${court.game.game_master_name}, your game master; it lets its holder record facts: `,
      h("input", { type: "text", readonly: true, value: link, "aria-label": "Game master's link", id: "master-link", onfocus: (e) => e.target.select() })) : null,
    h("div", { class: "move" },
      advance ? h("button", { type: "button", id: "move-advance_phase", "data-message": "advance_phase", onclick: () => ctx.send("advance_phase", {}) }, `Close phase ${names.phase(court.game.phase)}`)
        : h("p", { class: "muted" }, "The court is playing a step; the phase closes when it ends.")),
    h("h3", {}, "Record what happened at the table"),
    facts.map(([message, spec]) => factForm(message, spec, court, names, ctx)));
}
