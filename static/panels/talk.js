// Table talk and whispers (docs/protocol.md, "Table talk and whispers"): the panel of the game
// page and the lines the history shows beside its events. A line's text is only ever set as
// text (textContent through `h`), never parsed as HTML.
import { call } from "../lib/api.js";
import { errorText, fill, h, say } from "../lib/dom.js";
import { tokenFor } from "../lib/seat_store.js";
import { NAMES } from "../lib/sections.js";
import { atEnd, Unread } from "../lib/unread.js";

// Who a party is, in words: "Eddard (House Stark)", "the game master".
export function partyName(party, names) {
  if (party === "master")
    return names.court.game.game_master_name
      ? `${names.court.game.game_master_name}, the game master`
      : "the game master";
  return names.seat(Number(party.slice("seat:".length)));
}

// What a line says of where it was said: "at the table", "whispered to Cat".
export function where(line, names) {
  if (line.channel === "table") return "at the table";
  const viewer = names.court.viewer;
  const mine = (p) => p === (viewer.seat !== null ? `seat:${viewer.seat}` : "master");
  return `whispered to ${line.recipients.map((p) => (mine(p) ? "you" : partyName(p, names))).join(", ")}`;
}

// When a line was said, in the reader's local time ("14:05"; with the day when not today),
// the full date in its tooltip.
export function saidAt(line) {
  const at = new Date(line.said_at);
  if (Number.isNaN(at.getTime())) return null;
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const today = at.toDateString() === new Date().toDateString();
  return h(
    "time",
    {
      class: "talk-time muted",
      datetime: line.said_at,
      title: at.toLocaleString([], { dateStyle: "full", timeStyle: "long" }),
    },
    today ? time : `${at.toLocaleDateString([], { day: "numeric", month: "short" })} ${time}`,
  );
}

export function lineItem(line, names) {
  const text = h("span", { class: "talk-text" });
  text.textContent = line.text;
  return h(
    "li",
    {
      class: line.channel === "table" ? "talk table-talk" : "talk whisper",
      "data-position": line.position,
      "data-testid": "talk-line",
    },
    saidAt(line),
    " ",
    h("span", { class: "talk-who" }, `${partyName(line.sender, names)} `),
    h("span", { class: "muted" }, `(${where(line, names)}): `),
    text,
    // Said before the server signed talk lines (static/lib/witness.js checks the rest).
    line.signature
      ? ""
      : h(
          "span",
          { class: "muted talk-unsigned", title: "Said before this server signed talk lines" },
          " (unsigned)",
        ),
  );
}

// Every line the viewer is party to after `after`, page by page over HTTP.
export async function talkAfter(gameId, after) {
  const lines = [];
  for (;;) {
    const page = await call(
      "GET",
      `/api/games/${gameId}/talk?after=${after}`,
      undefined,
      tokenFor(gameId),
    );
    lines.push(...page.lines);
    if (page.next_after === null) return lines;
    after = page.next_after;
  }
}

// The sections of the court view this panel reads (lib/sections.js).
export const TALK_READS = ["game", ...NAMES];

export class TalkPanel {
  // `witness` (static/lib/witness.js) checks every line the panel is given.
  constructor(el, { gameId, send, witness }) {
    this.el = el;
    this.gameId = gameId;
    this.send = send;
    this.witness = witness;
    this.lines = new Map(); // position -> line
    this.names = null;
    this.party = null;
    this.list = h("ol", {
      class: "talk-lines",
      "aria-live": "polite",
      "data-testid": "talk-lines",
    });
    this.status = h("p", { class: "notice", role: "status", hidden: true });
    this.to = h("select", { id: "talk-to", "aria-label": "Say it to" });
    this.text = h("input", {
      id: "talk-text",
      type: "text",
      maxlength: "500",
      autocomplete: "off",
      "aria-label": "Your line",
    });
    const form = h(
      "form",
      {
        class: "talk-form",
        onsubmit: (event) => {
          event.preventDefault();
          this.submit();
        },
      },
      this.to,
      this.text,
      h("button", { type: "submit" }, "Send"),
    );
    const badge = h("span", { class: "talk-unread", "data-testid": "talk-unread", hidden: true });
    const jump = h("button", {
      type: "button",
      class: "talk-jump",
      "data-testid": "talk-jump",
      hidden: true,
    });
    this.unread = new Unread({
      list: this.list,
      badge,
      jump,
      key: (party) => `talk-read:${gameId}:${party}`,
    });
    fill(
      el,
      h("h2", { id: "talk-heading" }, "Table talk ", badge),
      this.list,
      jump,
      form,
      this.status,
    );
  }

  // The last position held: a reconnection asks only for what came after it.
  get after() {
    return Math.max(0, ...this.lines.keys());
  }

  // The panel shows for the seats and the game master; recipients follow the seats taken.
  draw(court, names) {
    this.names = names;
    const viewer = court.viewer;
    const party =
      viewer.seat !== null
        ? `seat:${viewer.seat}`
        : viewer.role === "game_master"
          ? "master"
          : null;
    this.party = party;
    this.el.hidden = party === null;
    if (party === null) {
      this.unread.update([], null);
      return;
    }
    const options = [
      ["table", "Everyone at the table"],
      ...court.seats
        .filter((s) => `seat:${s.seat}` !== party)
        .map((s) => [String(s.seat), `Whisper to ${names.seat(s.seat)}`]),
      ...(court.game.game_master_name && party !== "master"
        ? [["master", "Whisper to the game master"]]
        : []),
    ];
    const chosen = this.to.value;
    fill(
      this.to,
      options.map(([value, label]) => h("option", { value }, label)),
    );
    if (options.some(([value]) => value === chosen)) this.to.value = chosen;
    this.render();
  }

  add(lines) {
    this.witness?.seeTalk(lines);
    for (const line of lines) this.lines.set(line.position, line);
    this.render();
  }

  // The backlog on (re)connecting; a long one is completed over HTTP.
  async backlog(payload) {
    this.add(payload.lines);
    if (!payload.more) return;
    try {
      this.add(await talkAfter(this.gameId, payload.next_after));
    } catch (error) {
      say(this.status, errorText(error), "error");
    }
  }

  render() {
    if (!this.names) return;
    const sorted = [...this.lines.values()].sort((a, b) => a.position - b.position);
    // The list follows its newest line unless the reader scrolled up in it; only the list
    // scrolls, never the window (scrollIntoView would move the whole page on every push).
    const list = this.list;
    const following = atEnd(list);
    const kept = list.scrollTop;
    fill(
      list,
      sorted.map((line) => lineItem(line, this.names)),
    );
    list.scrollTop = following ? list.scrollHeight : kept;
    this.unread.update(sorted, this.party);
  }

  async submit() {
    const text = this.text.value;
    const to = this.to.value;
    try {
      const ack =
        to === "table"
          ? await this.send("say", { text })
          : await this.send("whisper", { to: to === "master" ? "master" : Number(to), text });
      // The speaker looks at what he said: the list goes to its end.
      this.list.scrollTop = this.list.scrollHeight;
      this.add([ack.line]);
      this.text.value = "";
      say(this.status, "", "info");
    } catch (error) {
      say(this.status, errorText(error), "error");
    }
  }
}
