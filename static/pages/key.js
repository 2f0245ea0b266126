// The page a key's link opens (/key#<key>): the key is taken out of the address bar at once, the
// seats it gathers are fetched with it and kept on this device, each with the key's own link of
// it, and each game is listed with whose seat it is. The key may be another person's: it never
// becomes this browser's own key, and nothing this browser holds is sent to it. The device keys
// the link carries after it (made and registered by the key's maker) are kept for its seats.
import { call } from "../lib/api.js";
import { errorText, fill, h, say } from "../lib/dom.js";
import { keepKeys, splitFragment } from "../lib/key_devices.js";
import { takeSeats } from "../lib/mykey.js";

const notice = document.getElementById("notice");
const list = document.getElementById("key-seats");

async function open() {
  const { key, keys } = splitFragment(window.location.hash.slice(1));
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  if (!key) {
    say(notice, "This link holds no key: copy the whole link, with what follows its #.", "error");
    return;
  }
  say(notice, "Opening the key…");
  try {
    const { seats } = await call("GET", "/api/keys/mine", undefined, key);
    takeSeats(seats);
    await keepKeys(keys, seats);
    say(
      notice,
      `This device now holds the key's ${seats.length === 1 ? "seat" : `${seats.length} seats`}, until the key is revoked. Nothing this browser held was sent to it.`,
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
