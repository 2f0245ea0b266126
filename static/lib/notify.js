// Telling the player it is his turn while he looks elsewhere: the tab's title and icon, a short
// tone (off by default, remembered on this device) and the browser's notifications (asked for
// with a button, shown only while the tab is hidden).
import { waitsOn } from "../panels/table.js";

export const MARK = "● Your turn — ";
const SOUND_KEY = "notify:sound";
const ICONS = { idle: "/static/favicon.svg", turn: "/static/favicon-turn.svg" };

export class TurnSignals {
  constructor({ sound, notifications, notificationsState, gameId }) {
    this.gameId = gameId;
    this.what = null; // what the court waits on this seat for, as last drawn
    this.audio = null;
    this.sound = sound;
    this.state = notificationsState;
    sound.checked = localStorage.getItem(SOUND_KEY) === "on";
    sound.addEventListener("change", () => {
      localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
      if (sound.checked) this.tone(); // a click lets the page play sound; the player hears it
    });
    notifications.addEventListener("click", () => this.ask());
    this.tellPermission();
  }

  // After the page set its title for a new court view: mark it, and signal a turn just begun.
  update(court) {
    const what = waitsOn(court, court.viewer.seat);
    markTurn(what !== null);
    if (what !== null && what !== this.what) this.began(what);
    this.what = what;
  }

  began(what) {
    if (this.sound.checked) this.tone();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification("Your turn · Small Council", {
        body: `Game ${this.gameId}: ${what}.`,
        tag: `turn-${this.gameId}`,
      });
    }
  }

  tone() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    this.audio ??= new Context();
    const audio = this.audio,
      now = audio.currentTime;
    const oscillator = audio.createOscillator(),
      gain = audio.createGain();
    oscillator.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.35);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(now);
    oscillator.stop(now + 0.35);
  }

  async ask() {
    if (!("Notification" in window)) return this.tellPermission();
    await Notification.requestPermission();
    this.tellPermission();
  }

  tellPermission() {
    if (!("Notification" in window)) {
      this.state.textContent = "This browser shows no notifications.";
      return;
    }
    this.state.textContent =
      {
        granted: "Allowed: a notification comes when it is your turn and this tab is hidden.",
        denied: "Refused in this browser's settings for this site.",
        default: "Not asked yet.",
      }[Notification.permission] ?? "";
  }
}

// The tab's title and icon: marked while some court waits on this player, plain otherwise.
export function markTurn(mine) {
  if (mine && !document.title.startsWith(MARK)) document.title = MARK + document.title;
  if (!mine && document.title.startsWith(MARK)) document.title = document.title.slice(MARK.length);
  icon(mine ? ICONS.turn : ICONS.idle);
}

function icon(href) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  if (link.getAttribute("href") !== href) {
    link.type = "image/svg+xml";
    link.href = href;
  }
}
