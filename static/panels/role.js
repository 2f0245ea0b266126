// What the page says and offers for who its viewer is: the connection line, the seat's
// reminders by mail and the host's webhook form. Drawn again from each court view, so a role that changes while the page is
// open (the host role handed on or voted over, a seat handed to a new link) shows at once.
import { say } from "../lib/dom.js";
import { Names } from "../lib/names.js";
import { NAMES } from "../lib/sections.js";
// The seat's reminders by mail; it also confirms an address from the mailed link.
import { setUpMail } from "./reminders.js";
import { setUpWebhook } from "./webhook.js";

export function describeViewer(court) {
  const { viewer } = court;
  if (viewer.seat !== null) {
    const seat = new Names(court).seat(viewer.seat).replace(" — you", "");
    return `Connected as ${seat}${viewer.host ? ", host" : ""}.`;
  }
  if (viewer.host) return "Connected as the host.";
  if (viewer.role === "game_master")
    return "Connected as the game master: you record what happens at the table.";
  return "Connected as a spectator: you see only what is public.";
}

// The sections of the court view this panel reads (lib/sections.js).
export const ROLE_READS = ["game", ...NAMES];

export class RoleParts {
  // `webhook`: the elements of the webhook form (webhook.js); `token()`: the tab's token.
  constructor({ connection, notifyPanel, webhook, gameId, token }) {
    this.connection = connection;
    this.notifyPanel = notifyPanel;
    this.webhookEls = webhook;
    this.gameId = gameId;
    this.token = token;
    this.webhook = null;
    this.host = false;
    this.mail = null;
    this.seat = null;
    this.said = null; // the line last said of the viewer
  }

  // On (re)connecting: the connection line says who the page is connected as.
  connected(court) {
    this.said = describeViewer(court);
    say(this.connection, this.said, "success");
    this.draw(court);
  }

  // After each court view: the line follows the viewer (unless it now tells of a lost
  // connection), and the webhook form shows for the host alone.
  draw(court) {
    const { viewer } = court;
    const line = describeViewer(court);
    if (this.said !== null && line !== this.said && this.connection.textContent === this.said) {
      this.said = line;
      say(this.connection, line, "success");
    }
    this.notifyPanel.hidden = viewer.seat === null && !viewer.host;
    if (viewer.seat !== this.seat) {
      this.seat = viewer.seat;
      this.mail ??= setUpMail(this.token);
      if (viewer.seat !== null) this.mail.show();
      else this.mail.hide();
    }
    if (viewer.host === this.host) return;
    this.host = viewer.host;
    this.webhook ??= setUpWebhook(this.webhookEls, this.gameId, this.token);
    if (viewer.host) this.webhook.show();
    else this.webhook.hide();
  }
}
