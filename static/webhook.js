// The host's webhook: set, test and remove the Discord or Slack URL the game's notices are
// posted to (whose turn it is, results, the end). Only the host's token reads it back.
import { call } from "./api.js";
import { errorText, say } from "./dom.js";

export function setUpWebhook(els, gameId, token) {
  const { panel, form, url, test, remove, status } = els;
  const path = `/api/games/${gameId}/webhook`;
  const run = async (doing, work) => {
    say(status, doing, "info");
    try {
      say(status, await work(), "success");
    } catch (error) {
      say(status, errorText(error), "error");
    }
  };
  const show = (current) => {
    url.value = current ?? "";
    remove.disabled = test.disabled = !current;
  };
  panel.hidden = false;
  call("GET", path, undefined, token())
    .then((answer) => {
      show(answer.url);
      say(
        status,
        answer.url ? "A webhook is set: the chat is told whose turn it is." : "No webhook is set.",
        "info",
      );
    })
    .catch((error) => say(status, errorText(error), "error"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run("Saving…", async () => {
      show((await call("PUT", path, { url: url.value }, token())).url);
      return "Saved: the chat is told from the next turn on.";
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
      show(null);
      return "Removed: the chat is told nothing more.";
    }),
  );
}
