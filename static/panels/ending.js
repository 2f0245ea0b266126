// How an ended game ended: the banner each page shows at its top once the game is over (the
// game page, its history, the front page's "Your games"): who won, or that nobody did, the way
// it ended, and every player's victory points. And the round as the page names it, "Round 3
// of 8" when the game has a last round (R-4.8).
import { fill, h, swatch } from "../lib/dom.js";
import { NAMES } from "../lib/sections.js";

const HOW = {
  victory: "Won at the victory check",
  last_round: "The last round was played",
  table: "Ended by the table's vote",
};

function who(standing) {
  return standing.player_name ?? `Seat ${standing.seat + 1}`;
}

function listed(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

// The banner of a court view's `ending`; `names` (static/lib/names.js) names and colours Houses.
export function endingBanner(ending, names) {
  const winners = ending.standings.filter((s) => s.winner).map(who);
  const headline = winners.length ? `${listed(winners)} won` : "Nobody won";
  return h(
    "div",
    { class: "ending-banner", "data-testid": "ending", "data-how": ending.how },
    h(
      "p",
      { class: "ending-headline" },
      h("strong", { "data-testid": "ending-winners" }, `The game is over: ${headline}.`),
      " ",
      h("span", { class: "ending-how", "data-testid": "ending-how" }, `${HOW[ending.how] ?? ""}.`),
    ),
    h("p", { class: "ending-text", "data-testid": "ending-text" }, ending.text),
    h(
      "ol",
      { class: "standings", "data-testid": "standings", "aria-label": "Standings" },
      ending.standings.map((s) =>
        h(
          "li",
          { class: s.winner ? "winner" : "", "data-seat": s.seat },
          swatch(names.colours(s.house)),
          " ",
          `${names.house(s.house)} · ${who(s)}: ${s.vp} VP`,
          s.winner ? h("strong", {}, " · winner") : "",
        ),
      ),
    ),
  );
}

// The sections of the court view this panel reads (lib/sections.js).
export const ENDING_READS = ["ending", "game", ...NAMES];

// The game page's and the history's banner: shown once the game has ended, empty before.
export function renderEnding(el, court, names) {
  el.hidden = !court.ending;
  if (court.ending) fill(el, endingBanner(court.ending, names));
  else fill(el);
}

// "Round 3 of 8" with a last round, else "Round 3".
export function roundLabel(game) {
  return game.last_round ? `Round ${game.round} of ${game.last_round}` : `Round ${game.round}`;
}

// The summary's round: "3 of 8" with a last round, else "3".
export function roundOf(game) {
  return game.last_round ? `${game.round} of ${game.last_round}` : String(game.round);
}
