// The House cards: each seated House in its colours and arms with its player, connection,
// victory points, treasury, villages per region, and its Nobles as a compact list (titles as
// chips, statuses and attributes as badges with words for screen readers).

import { armsOf } from "../lib/arms.js";
import { fill, h } from "../lib/dom.js";
import { attributeBadge, badge, titleChip } from "../lib/icons.js";
import { NAMES, PRESENCE, TURN } from "../lib/sections.js";
import { botBadge } from "./bot_seats.js";
import { playerClocks } from "./clocks.js";
import { presenceBadge } from "./table.js";

function statusBadges(noble, names) {
  const badges = [];
  if (noble.status === "dead") badges.push(badge("dead", "✝", "dead"));
  if (noble.status === "captive")
    badges.push(badge("captive", "⊗", "captive", `captive of ${names.house(noble.captor)}`));
  if (noble.status === "brother")
    badges.push(badge("brother", "◼", "Brother", "Brother of the Night's Watch"));
  if (noble.outlaw) badges.push(badge("outlaw", "☠", "Outlaw"));
  if (noble.spouse)
    badges.push(
      badge("married", "⚭", names.noble(noble.spouse), `married to ${names.noble(noble.spouse)}`),
    );
  return badges;
}

// A Noble with no title, no spouse, in play and no Outlaw shares a line with others like him.
function plain(noble) {
  return !noble.titles.length && !noble.spouse && !noble.outlaw && noble.status === "in_play";
}

function nobleItem(noble, names) {
  return h(
    "li",
    {
      class: `noble ${noble.status}${plain(noble) ? " plain" : ""}`,
      id: `noble-${noble.id}`,
      "data-noble": noble.id,
    },
    h(
      "span",
      { class: "name" },
      noble.name,
      noble.gender === "lady"
        ? h(
            "span",
            { class: "gender", title: "Lady" },
            h("span", { "aria-hidden": "true" }, " ♀"),
            h("span", { class: "visually-hidden" }, " (Lady)"),
          )
        : null,
    ),
    noble.titles.map((t) => titleChip(t, names)),
    statusBadges(noble, names),
    noble.attributes.map(attributeBadge),
  );
}

export function villagesHeld(house, court) {
  const rows = court.regions
    .map((r) => [r.name, r.villages.filter((v) => v.controller === house.id)])
    .filter(([, held]) => held.length);
  if (!rows.length) return h("p", { class: "villages muted" }, "No villages held.");
  return h(
    "ul",
    { class: "villages" },
    rows.map(([region, held]) =>
      h(
        "li",
        {},
        h("strong", {}, `${region}: `),
        held.map((v) => `${v.name}${v.sept ? " (Sept)" : ""}`).join(", "),
      ),
    ),
  );
}

function playerLine(seat, court, presence) {
  if (!seat) return h("p", { class: "player" }, "No player");
  const you = seat.seat === court.viewer.seat;
  return h(
    "p",
    { class: "player" },
    `Seat ${seat.seat + 1}: ${seat.player_name}`,
    seat.host ? " · host" : "",
    you ? " · you" : "",
    " ",
    presenceBadge(seat.seat, presence, court),
    botBadge(seat.seat, court),
  );
}

function houseCard(house, court, names, presence, clock) {
  const seat = court.seats.find((s) => s.house === house.id);
  const [c1 = "#6b7280", c2 = c1] = house.colours;
  return h(
    "article",
    {
      class: `house${seat && seat.seat === court.viewer.seat ? " mine" : ""}`,
      style: { "--c1": c1, "--c2": c2 },
      "data-house": house.id,
      "aria-labelledby": `house-${house.id}`,
    },
    h(
      "header",
      {},
      h("h3", { id: `house-${house.id}` }, armsOf(house), " ", house.name),
      h("span", { class: "vp", "data-testid": `vp-${house.id}` }, `${house.vp ?? 0} VP`),
      h("p", { class: "words" }, `“${house.words}”`),
      playerLine(seat, court, presence),
      h(
        "p",
        { class: "treasury" },
        h("strong", {}, "Treasury: "),
        house.treasury === null ? "—" : `${house.treasury} Gold Dragons`,
      ),
      seat && playerClocks(court, seat.seat, clock),
    ),
    villagesHeld(house, court, names),
    h(
      "ul",
      { class: "nobles", "aria-label": `Nobles of ${house.name}` },
      house.nobles.map((n) => nobleItem(n, names)),
    ),
  );
}

// The sections of the court view this panel reads (lib/sections.js).
export const HOUSES_READS = [...TURN, "clocks", "table", PRESENCE, ...NAMES];

export function renderHouses(el, court, names, presence, clock) {
  const seated = court.houses.filter((house) => house.seat !== null);
  fill(
    el,
    seated.length
      ? seated.map((house) => houseCard(house, court, names, presence, clock))
      : h("p", { class: "muted" }, "No House has a player yet."),
  );
}
