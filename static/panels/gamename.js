// A game's name: what the page's heading and title call the game (its host's name for it, or
// "Game <id>" without one), and the host's form to change it. Names are set as text, never as
// markup.
import { h, onPage, say } from "../lib/dom.js";

const LIMIT = 60;

// The sections of the court view this panel reads (lib/sections.js).
export const GAME_NAME_READS = ["game", "viewer"];

// The heading's name part and the tab's title; `place` is what the title leads with.
export function showGameName(court, place) {
  const name = document.getElementById("game-name");
  if (name) name.textContent = court.game.name ?? "Game";
  document.title = `${place ? `${place} · ` : ""}${court.game.title} · Small Council`;
}

// The host names or renames the game (1 to 60 characters; the server says what it refuses).
export function renameForm(court, ctx) {
  if (!court.viewer.host) return null;
  const status = h("span", { class: "muted", role: "status" });
  const input = h("input", {
    type: "text",
    id: "game-name-input",
    name: "name",
    maxlength: String(LIMIT),
    required: true,
    value: court.game.name ?? "",
    placeholder: "a name for the game",
    "aria-label": "The game's name",
  });
  const submit = async (event) => {
    event.preventDefault();
    const name = onPage(input).value.trim();
    if (!name) {
      say(onPage(status), `A game's name has 1 to ${LIMIT} characters.`, "error");
      return;
    }
    await ctx.send("rename_game", { name }, status);
  };
  const form = h(
    "form",
    { class: "rename-game", id: "rename-game", onsubmit: submit },
    h("label", { for: "game-name-input" }, "Game name: "),
    input,
    " ",
    h("button", { type: "submit" }, court.game.name ? "Rename" : "Name it"),
    " ",
    status,
  );
  return form;
}
