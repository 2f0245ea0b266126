// The page a person's key opens (/key#<key>): the key is taken out of the address bar at once,
// the seats it gathers are fetched with it and kept on this device, and each game is listed.
import { call } from "./api.js";
import { errorText, fill, h, say } from "./dom.js";
import { takeSeats } from "./mykey.js";

const notice = document.getElementById("notice");
const list = document.getElementById("key-seats");

async function open() {
  const key = decodeURIComponent(window.location.hash.slice(1));
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  if (!key) {
    say(notice, "This link holds no key: copy the whole link, with what follows its #.", "error");
    return;
  }
  say(notice, "Opening your key…");
  try {
    const { seats } = await call("GET", "/api/keys/mine", undefined, key);
    takeSeats(key, seats);
    say(
      notice,
      `This device now holds your ${seats.length === 1 ? "seat" : `${seats.length} seats`}.`,
      "success",
    );
    fill(
      list,
      seats.map((s) =>
        h(
          "li",
          { "data-game": s.game_id },
          h("a", { href: `/games/${encodeURIComponent(s.game_id)}` }, s.title),
          ` · as ${s.label}`,
        ),
      ),
    );
  } catch (error) {
    say(notice, errorText(error), "error");
  }
}

open();
