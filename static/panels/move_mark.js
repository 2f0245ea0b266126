// What a page draws beside a record for the check of its player's signature (the witness's
// `verdict`): the one place that words "unsigned", "checking…" and a move that fails.
import { h } from "../lib/dom.js";

// Whether the record's own sentence may be drawn: not before its check passed.
export const believed = (verdict) => verdict !== "checking" && verdict !== "failed";

// The line drawn in place of a record's sentence while it is withheld.
export function withheld(verdict) {
  return verdict === "failed"
    ? h(
        "span",
        { class: "move-failed", "data-testid": "move-failed" },
        "Not shown: no device of the player it names vouches for this record (see the banner).",
      )
    : h(
        "span",
        { class: "muted", "data-testid": "checking" },
        "checking… (shown once its player's signature checks)",
      );
}

// The mark beside a move that no device of its player signs, or nothing.
export function unsignedMark(verdict) {
  return verdict === "unsigned"
    ? h(
        "span",
        {
          class: "unsigned",
          "data-testid": "unsigned",
          title: "No device of this player signs his moves: only the server vouches for it.",
        },
        " · unsigned",
      )
    : null;
}
