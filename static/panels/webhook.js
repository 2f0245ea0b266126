// The host's webhook: set, test and remove the Discord or Slack URL the game's notices are
// posted to, and choose what they tell (every move, step summaries or results only). Only the
// host's token reads it back.
import { call } from "../lib/api.js";
import { errorText, say } from "../lib/dom.js";

// The form's handlers, set once; `show` reads the setting with the token then held, `hide`
// forgets it on the page (the host role went to another seat).
export function setUpWebhook(els, gameId, token) {
  const { panel, form, url, digest, test, remove, status } = els;
  const path = `/api/games/${gameId}/webhook`;
  let shown = 0; // each show or hide; an answer read for an earlier one is dropped
  const run = async (doing, work) => {
    say(status, doing, "info");
    try {
      say(status, await work(), "success");
    } catch (error) {
      say(status, errorText(error), "error");
    }
  };
  const fillIn = (current) => {
    url.value = current?.url ?? "";
    digest.value = current?.digest ?? "steps";
    remove.disabled = test.disabled = !current?.url;
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run("Saving…", async () => {
      const answer = await call("PUT", path, { url: url.value, digest: digest.value }, token());
      fillIn(answer);
      return `Saved: from the next turn on, the chat is told ${answer.told}.`;
    });
  });
  test.addEventListener("click", () =>
    run("Sending a test message…", async () => {
      await call("POST", `${path}/test`, undefined, token());
      return "The test message arrived.";
    }),
  );
  remove.addEventListener("click", () =>
    run("Removing…", async () => {
      await call("DELETE", path, undefined, token());
      fillIn(null);
      return "Removed: the chat is told nothing more.";
    }),
  );
  return {
    show() {
      const now = ++shown;
      panel.hidden = false;
      fillIn(null);
      say(status, "Reading the webhook…", "info");
      call("GET", path, undefined, token())
        .then((answer) => {
          if (now !== shown) return;
          fillIn(answer);
          say(
            status,
            answer.url
              ? `A webhook is set: the chat is told ${answer.told}.`
              : "No webhook is set.",
            "info",
          );
        })
        .catch((error) => now === shown && say(status, errorText(error), "error"));
    },
    hide() {
      shown++;
      panel.hidden = true;
      fillIn(null);
      say(status, null);
    },
  };
}
