// A seat the bot plays while its player is away (docs/rules-map.md, "A seat played by the bot"):
// its badge on the House cards, and the table's choice when voting to replace a player: a new
// link or the bot. Which seats the bot plays comes from the court view's `table.bots`.
import { h } from "../lib/dom.js";

export const playedByBot = (court, seat) => (court.table?.bots ?? []).includes(seat);

export function botBadge(seat, court) {
  if (!playedByBot(court, seat)) return null;
  const own = seat === court.viewer.seat;
  return h(
    "span",
    { class: "bot-badge", "data-testid": `bot-${seat}` },
    own
      ? " · played by the bot while you were away"
      : " · played by the bot until its player is back",
  );
}

// The votes cast for each choice, as "2 for a new link, 1 for the bot".
export function choiceCounts(counted) {
  const bots = counted.filter((v) => v.bot).length;
  const links = counted.length - bots;
  return [links && `${links} for a new link`, bots && `${bots} for the bot`]
    .filter(Boolean)
    .join(", ");
}

// The two buttons of a vote to replace `seat`: a new link, or the bot (not while it plays).
export function replaceChoices(court, seat, vote) {
  const bot = playedByBot(court, seat.seat);
  return [
    h(
      "button",
      {
        type: "button",
        class: "vote-replace",
        "data-seat": seat.seat,
        onclick: () => vote(seat, false),
      },
      `Vote to hand ${seat.player_name}'s seat to a new link`,
    ),
    !bot && " ",
    !bot &&
      h(
        "button",
        {
          type: "button",
          class: "vote-bot",
          "data-seat": seat.seat,
          onclick: () => vote(seat, true),
        },
        "Vote for the bot to play it",
      ),
  ];
}

export const botQuestion = (who) =>
  `Vote for the bot to play the seat of ${who} until he is back? Once a majority of the other seats votes for the bot, it makes the seat's moves when the court waits on it (it accepts titles, stands its Lords and backs them, passes, and never bids, proposes or votes); his own link stays his, and opening it gives him the seat back.`;
