// A seat's reminders by mail: give, see and remove the address the court mails when this
// page is closed (its turn, the results, the end of the game), and confirm one with the link
// the court mailed (#mail=CODE). Only the seat's own token reads the address back.
import { call } from "../lib/api.js";
import { errorText, say } from "../lib/dom.js";

const $ = (id) => document.getElementById(id);
const gameId = document.querySelector("script[data-game]").dataset.game;
const path = `/api/games/${gameId}/mail`;
const CONFIRM_CHECK_MS = 4000;

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
  const fillIn = (answer) => {
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
      const answer = await call("PUT", path, { address: address.value }, token());
      fillIn(answer);
      waiting = answer.address && !answer.verified ? answer.address : null;
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
  // An address waiting for its confirmation is confirmed elsewhere (the mail's link opens
  // another tab or device): asked again while this tab is seen, it shows so without a reload;
  // only its state changes, never a field being typed in.
  let waiting = null;
  const recheck = () => {
    if (!waiting || document.hidden) return;
    const now = shown;
    call("GET", path, undefined, token())
      .then((answer) => {
        if (now !== shown || answer.address !== waiting) return;
        if (answer.verified) {
          waiting = null;
          state.textContent = stateText(answer);
        }
      })
      .catch(() => {});
  };
  setInterval(recheck, CONFIRM_CHECK_MS);
  document.addEventListener("visibilitychange", recheck);
  const read = (answer) => {
    fillIn(answer);
    waiting = answer.address && !answer.verified ? answer.address : null;
  };
  return {
    show() {
      const now = ++shown;
      call("GET", path, undefined, token())
        .then((answer) => now === shown && read(answer))
        .catch(() => now === shown && hide());
    },
    hide,
  };
}

confirmFromLink();
