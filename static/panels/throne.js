// The throne room: every office of the realm as a seat showing its holder in his House's
// colours and arms (or "empty"), each seated House's victory points, and the marriage
// alliances between Houses. Drawn from a court view, on the game and history pages.

import { armsOf } from "../lib/arms.js";
import { fill, h } from "../lib/dom.js";
import { titleSymbol } from "../lib/icons.js";
import { NAMES } from "../lib/sections.js";

// The offices in the order the table reads them; a title no group takes goes last.
const GROUPS = [
  [
    "realm",
    "The crown and the realm",
    (t) => t.category === "royal" || t.category === "mother_of_dragons" || t.nights_watch,
  ],
  ["council", "The Small Council", (t) => t.council],
  ["wardens", "The Wardens", (t) => t.category === "military"],
  ["fiefs", "The Fiefs", (t) => t.category === "fief"],
];

function holderOf(noble, names, office) {
  if (!noble) return h("span", { class: "holder empty" }, "empty");
  const house = names.houses.get(names.houseOfNoble(noble));
  return h(
    "a",
    {
      class: "holder",
      href: `#noble-${noble}`,
      "aria-label": `${office}: ${names.noble(noble)} of ${house?.name ?? "no House"}`,
    },
    armsOf(house, 1.2),
    h("span", { class: "who" }, names.noble(noble)),
  );
}

// "Lord of Winterfell" under "The Fiefs" reads "Winterfell"; the full name is for screen readers.
function shortName(office) {
  const short = office
    .replace(/^(Lord of (the )?|Warden of (the )?|Master of )/, "")
    .replace(/ of the (King|Realm|Night's Watch)$/, "");
  return short.charAt(0).toUpperCase() + short.slice(1);
}

function seat(id, office, symbol, noble, names, extra = null) {
  const house = noble ? names.houses.get(names.houseOfNoble(noble)) : null;
  const [c1 = "transparent", c2 = c1] = house?.colours ?? [];
  const short = shortName(office);
  return h(
    "li",
    {
      class: `seat${noble ? " held" : ""}`,
      "data-title": id,
      "data-testid": `seat-${id}`,
      "data-holder": noble ?? "",
      style: { "--c1": c1, "--c2": c2 },
    },
    h(
      "span",
      { class: "office", title: office },
      h("span", { class: "icon", "aria-hidden": "true" }, symbol),
      " ",
      short === office
        ? office
        : [
            h("span", { "aria-hidden": "true" }, short),
            h("span", { class: "visually-hidden" }, office),
          ],
      extra,
    ),
    holderOf(noble, names, office),
  );
}

function groups(court, names) {
  const watch = court.game.variants?.nights_watch;
  const left = court.titles.filter((t) => watch || !t.nights_watch);
  const drawn = [];
  for (const [key, label, takes] of [...GROUPS, ["other", "Other titles", () => true]]) {
    const titles = left.filter((t) => takes(t) && !drawn.some(([, , ts]) => ts.includes(t)));
    if (titles.length) drawn.push([key, label, titles]);
  }
  return drawn.map(([key, label, titles]) => {
    const seats = titles.map((t) =>
      seat(
        t.id,
        t.name,
        titleSymbol(t),
        t.holder,
        names,
        t.vp
          ? h(
              "span",
              { class: "title-vp", title: `${t.vp} VP` },
              h("span", { "aria-hidden": "true" }, "★"),
              h("span", { class: "visually-hidden" }, `, ${t.vp} VP`),
            )
          : null,
      ),
    );
    if (key === "council" && court.fourth_seat)
      seats.push(seat("fourth-seat", "Fourth council seat", "✦", court.fourth_seat, names));
    return h(
      "div",
      { class: `office-group ${key}` },
      h("h4", { id: `offices-${key}` }, label),
      h("ul", { class: "seats", "aria-labelledby": `offices-${key}` }, seats),
    );
  });
}

function allyOf(court, houseId) {
  const alliance = (court.alliances ?? []).find((a) => a.houses.includes(houseId));
  return alliance ? alliance.houses.find((other) => other !== houseId) : null;
}

// Each seated House's points, and a linked badge to the House it is allied with.
function standings(court, names) {
  const seated = court.houses.filter((house) => house.seat !== null);
  return h(
    "ul",
    { class: "standings", "aria-label": "Victory points per House" },
    seated.map((house) => {
      const ally = allyOf(court, house.id);
      return h(
        "li",
        {
          class: "standing",
          "data-standing": house.id,
          style: { "--c1": house.colours[0], "--c2": house.colours[1] },
        },
        armsOf(house, 1.4),
        h(
          "span",
          { class: "name" },
          h("span", { class: "visually-hidden" }, house.name),
          h("span", { "aria-hidden": "true" }, house.name.replace(/^House /, "")),
        ),
        h("span", { class: "vp", "data-testid": `standing-vp-${house.id}` }, `${house.vp ?? 0} VP`),
        ally
          ? h(
              "span",
              { class: "badge ally", title: `allied with ${names.house(ally)}` },
              h("span", { class: "icon", "aria-hidden": "true" }, "⚭"),
              h("span", { class: "visually-hidden" }, `allied with ${names.house(ally)}`),
              armsOf(names.houses.get(ally), 1),
            )
          : null,
      );
    }),
  );
}

function alliances(court, names) {
  const list = court.alliances ?? [];
  if (!list.length)
    return h(
      "p",
      { class: "alliances muted", "data-testid": "alliances" },
      "No alliance by marriage.",
    );
  return h(
    "ul",
    { class: "alliances", "data-testid": "alliances", "aria-label": "Alliances by marriage" },
    list.map((a) => {
      const [first, second] = a.houses.map((id) => names.houses.get(id));
      return h(
        "li",
        { class: "alliance", "data-houses": a.houses.join(" ") },
        h("span", { class: "emblem" }, armsOf(first, 1.4), " ", first?.name),
        h("span", { class: "link", "aria-hidden": "true" }, "⚭"),
        h("span", { class: "emblem" }, armsOf(second, 1.4), " ", second?.name),
        h(
          "span",
          { class: "couple" },
          ` allied by the marriage of ${names.noble(a.lord)} and ${names.noble(a.lady)}`,
          ` · ${first.vp + second.vp} VP together`,
        ),
      );
    }),
  );
}

// The sections of the court view this panel reads (lib/sections.js).
export const THRONE_READS = ["alliances", "fourth_seat", "game", ...NAMES];

export function renderThrone(el, court, names) {
  const playing = court.game.status !== "lobby";
  el.hidden = !playing;
  if (!playing) {
    fill(el);
    return;
  }
  fill(
    el,
    h("h3", { id: "throne-heading" }, "The throne room"),
    standings(court, names),
    alliances(court, names),
    h("div", { class: "offices" }, groups(court, names)),
  );
}
