// The new player of a seat handed to a new link says his own name when he opens it:
// until he has, the seat keeps its old player's name and counts for no vote of the table.
import { h, onPage, say } from "../lib/dom.js";

const LIMIT = 40;

export function claimForm(court, names, ctx) {
  const seat = court.seats.find((s) => s.seat === court.viewer.seat);
  if (!seat?.unclaimed || court.game.status === "ended") return null;
  const status = h("p", { class: "notice", role: "status", hidden: true });
  const input = h("input", {
    type: "text",
    id: "claim-name",
    name: "player_name",
    maxlength: String(LIMIT),
    required: true,
    autocomplete: "nickname",
    "aria-describedby": "claim-why",
  });
  const submit = async (event) => {
    event.preventDefault();
    const name = onPage(input).value.trim();
    if (!name) return say(onPage(status), `Your name has 1 to ${LIMIT} characters.`, "error");
    await ctx.send("claim_seat", { player_name: name }, status);
  };
  return h(
    "form",
    { class: "panel claim-seat", id: "claim-seat", onsubmit: submit },
    h("h2", {}, `This seat is yours now: ${names.house(seat.house)}`),
    h(
      "p",
      { id: "claim-why" },
      `It was handed to your link; until you say your name it is shown as ${seat.player_name}'s and counts for no vote of the table (to replace a player, end the game, answer a correction or choose a host). You play it from now on either way: your clocks are full.`,
    ),
    h("label", { for: "claim-name" }, "Your name"),
    " ",
    input,
    " ",
    h("button", { type: "submit", class: "primary" }, "Take the seat"),
    status,
  );
}
