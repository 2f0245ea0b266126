// "What changed between two versions": the server compares the court as it stood after
// version A and after version B and tells each difference as a sentence, drawn once every
// record up to B checks against its player's keys (static/lib/witness_moves.js).
import { call } from "../lib/api.js";
import { errorText, fill, h, say } from "../lib/dom.js";
import { tokenFor } from "../lib/seat_store.js";

const KINDS = {
  title: "Title",
  council: "Council",
  noble: "Noble",
  marriage: "Marriage",
  alliance: "Alliance",
  treasury: "Treasury",
  village: "Village",
  sept: "Sept",
  correction: "Correction",
};

export function setUpCompare({
  gameId,
  form,
  from,
  to,
  setFrom,
  setTo,
  error,
  out,
  chosen,
  witness,
}) {
  setFrom.addEventListener("click", () => {
    from.value = String(chosen());
  });
  setTo.addEventListener("click", () => {
    to.value = String(chosen());
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say(error, "");
    fill(out, h("li", { class: "muted" }, "Comparing…"));
    try {
      const told = await call(
        "GET",
        `/api/games/${gameId}/changes?from=${Number(from.value)}&to=${Number(to.value)}`,
        undefined,
        tokenFor(gameId),
      );
      // Both courts compared are of versions the page checks against what it holds, and
      // the moves that made them against their players' keys: a change one fails is no news.
      for (const checkpoint of told.checkpoints ?? []) witness?.checkpoint(checkpoint);
      await witness?.movesThrough(told.to);
      const failed = witness?.mismatch;
      if (failed && failed.version <= told.to) {
        fill(out);
        say(
          error,
          `These changes are not shown: the record of version ${failed.version} cannot be believed (see the banner).`,
          "error",
        );
        return;
      }
      fill(
        out,
        told.changes.length
          ? told.changes.map((c) =>
              h(
                "li",
                { "data-kind": c.kind },
                h("span", { class: "badge" }, KINDS[c.kind] ?? c.kind),
                " ",
                c.text,
              ),
            )
          : h(
              "li",
              { class: "muted" },
              `Nothing at court changed from version ${told.from} to version ${told.to}.`,
            ),
      );
    } catch (e) {
      fill(out);
      say(error, errorText(e), "error");
    }
  });
  return {
    // Once the log is read: B is the latest version, A the one before, until the viewer
    // picks others (a version the game does not have is refused by the server, next to the form).
    prefill(current) {
      if (!to.value) to.value = String(current);
      if (!from.value) from.value = String(Math.max(1, current - 1));
    },
  };
}
