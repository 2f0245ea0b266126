// A seat's reminders by mail: give, see and remove the address the court mails when this
// page is closed (its turn, the results, the end of the game), and confirm one with the link
// the court mailed (#mail=CODE). Only the seat's own token reads the address back.
import { call, tokenFor } from "./api.js";
import { errorText, say } from "./dom.js";

const $ = (id) => document.getElementById(id);
const gameId = document.querySelector("script[data-game]").dataset.game;
const path = `/api/games/${gameId}/mail`;

function stateText(answer) {
  if (!answer.address) return "No address is given: the court mails you nothing.";
  return answer.verified
    ? `Reminders go to ${answer.address}.`
    : `${answer.address} is not confirmed yet: open the link the court mailed to it.`;
}

async function confirmFromLink() {
  const match = window.location.hash.match(/^#mail=([A-Za-z0-9_-]{1,100})$/);
  if (!match) return;
  // The code leaves the address bar at once: it is the proof the address is yours.
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  const status = $("mail-link-status");
  try {
    await call("POST", `${path}/verify`, { code: match[1] });
    say(
      status,
      "Your address is confirmed: the court mails you when this page is closed.",
      "success",
    );
  } catch (error) {
    say(status, errorText(error), "error");
  }
}

async function setUpMail() {
  const panel = $("mail-settings");
  const form = $("mail-form");
  const address = $("mail-address");
  const remove = $("mail-remove");
  const state = $("mail-state");
  const status = $("mail-status");
  const token = () => tokenFor(gameId);
  const show = (answer) => {
    panel.hidden = !answer.mail;
    address.value = answer.address ?? "";
    remove.disabled = !answer.address;
    state.textContent = stateText(answer);
  };
  const run = async (doing, work) => {
    say(status, doing, "info");
    try {
      say(status, await work(), "success");
    } catch (error) {
      say(status, errorText(error), "error");
    }
  };
  if (!token()) return;
  try {
    show(await call("GET", path, undefined, token()));
  } catch {
    return; // no seat of this game on this device: nothing to set
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run("Sending the mail with the link…", async () => {
      show(await call("PUT", path, { address: address.value }, token()));
      return "A mail with a link is on its way: open it to confirm the address.";
    });
  });
  remove.addEventListener("click", () =>
    run("Removing…", async () => {
      await call("DELETE", path, undefined, token());
      show({ address: null, verified: false, mail: true });
      return "Removed: the court mails you nothing more.";
    }),
  );
}

await confirmFromLink();
await setUpMail();
