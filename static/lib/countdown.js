// A deadline counted down every second, on the server's clock (offset learnt from `presence`).
import { h } from "./dom.js";

export class Clock {
  constructor() {
    this.offset = 0;
  }
  learn(serverTime) {
    this.offset = serverTime - Date.now() / 1000;
  }
  now() {
    return Date.now() / 1000 + this.offset;
  }
}

const timers = new Set();
setInterval(() => {
  for (const tick of timers) tick();
}, 1000);

export function format(seconds) {
  if (seconds <= 0) return "time is up";
  const s = Math.floor(seconds);
  const hours = Math.floor(s / 3600),
    minutes = Math.floor((s % 3600) / 60),
    rest = s % 60;
  const mm = String(minutes).padStart(hours ? 2 : 1, "0"),
    ss = String(rest).padStart(2, "0");
  return `${hours ? `${hours}:` : ""}${mm}:${ss} left`;
}

export function countdown(deadline, clock) {
  const el = h("time", {
    class: "countdown",
    "data-testid": "countdown",
    datetime: new Date(deadline * 1000).toISOString(),
  });
  const tick = () => {
    if (!el.isConnected && el.dataset.started) {
      timers.delete(tick);
      return;
    }
    el.dataset.started = "1";
    const left = deadline - clock.now();
    el.textContent = format(left);
    el.classList.toggle("urgent", left < 30);
  };
  tick();
  timers.add(tick);
  return el;
}
