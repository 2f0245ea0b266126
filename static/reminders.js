// A seat's reminders by mail: give, see and remove the address the court mails when this
// page is closed (its turn, the results, the end of the game), and confirm one with the link
// the court mailed (#mail=CODE). Only the seat's own token reads the address back.
import { call } from "./api.js";
import { errorText, say } from "./dom.js";

const $ = (id) => document.getElementById(id);
const gameId = document.querySelector("script[data-game]").dataset.game;
const path = `/api/games/${gameId}/mail`;
// Tells this browser's other tabs of the game that an address was confirmed here, so that
// a tab showing it "not confirmed" reads it again.
const confirmations = "BroadcastChannel" in window ? new BroadcastChannel("mail-confirmed") : null;

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
    confirmations?.postMessage(gameId);
    say(
      status,
      "Your address is confirmed: the court mails you when this page is closed.",
      "success",
    );
  } catch (error) {
    say(status, errorText(error), "error");
  }
}

// The panel's handlers, set once; `show` reads the address with the seat token then held (the
// panel shows where the server mails at all), `hide` forgets it on the page (no seat here now).
export function setUpMail(token) {
  const panel = $("mail-settings");
  const form = $("mail-form");
  const address = $("mail-address");
  const remove = $("mail-remove");
  const state = $("mail-state");
  const status = $("mail-status");
  let shown = 0; // each show or hide; an answer read for an earlier one is dropped
  let waiting = false; // an address is shown not confirmed yet: its link may be opened elsewhere
  const fillIn = (answer) => {
    waiting = Boolean(answer.address && !answer.verified);
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
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run("Sending the mail with the link…", async () => {
      fillIn(await call("PUT", path, { address: address.value }, token()));
      return "A mail with a link is on its way: open it to confirm the address.";
    });
  });
  remove.addEventListener("click", () =>
    run("Removing…", async () => {
      await call("DELETE", path, undefined, token());
      fillIn({ address: null, verified: false, mail: true });
      return "Removed: the court mails you nothing more.";
    }),
  );
  const hide = () => {
    shown++;
    fillIn({ address: null, verified: false, mail: false });
    say(status, null);
  };
  const show = () => {
    const now = ++shown;
    call("GET", path, undefined, token())
      .then((answer) => now === shown && fillIn(answer))
      .catch(() => now === shown && hide());
  };
  // The link confirmed in another tab of this browser, or on another device before the
  // player came back to this page: read the address again.
  const again = () => waiting && token() && show();
  confirmations?.addEventListener("message", (event) => event.data === gameId && again());
  document.addEventListener("visibilitychange", () => !document.hidden && again());
  window.addEventListener("focus", again);
  return { show, hide };
}

confirmFromLink();
