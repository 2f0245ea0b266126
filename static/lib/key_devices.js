// The device keys a "my key" link hands a new device: for each seat this device keyed, a key
// pair made here, its public half registered signed by this device's key (the seat's token
// alone adds no second key), its seed carried in the link's fragment, which no browser sends.
import { call } from "./api.js";
import {
  deviceKey,
  keepSeed,
  keyForAnotherDevice,
  keyIdOfSeed,
  seedOf,
  seedText,
} from "./device_keys.js";
import { signedPayload } from "./signing.js";

const listedFor = (court, holder, keyId) =>
  (court.devices ?? []).some((k) => k.holder === holder && k.key_id === keyId);

// The seat's court as its token sees it, and this device's standing key of its holder (null
// where this device holds none the log lists).
async function seatAndKey(gameId, token) {
  const api = `/api/games/${encodeURIComponent(gameId)}`;
  const court = await call("GET", api, undefined, token);
  const holder = court.viewer?.holder;
  const key = holder ? await deviceKey(gameId, holder) : null;
  return { api, court, holder, key: listedFor(court, holder, key?.keyId) ? key : null };
}

// `message` with `payload`, signed by `key` on the court's head and sent with the seat's token.
async function sendSigned({ api, court, holder, key }, gameId, token, message, payload) {
  const head = { version: court.checkpoint.version, hash: court.checkpoint.hash };
  const body = await signedPayload(key, { gameId, holder, message, payload, head });
  await call("POST", `${api}/commands/${message}`, body, token);
}

// A key for another device of the seat's holder, registered: [game, holder, seed text], or
// null where this device holds no standing key of the seat (the new device then plays it
// unkeyed, or not at all when another device keyed it).
async function keyFor({ game_id: gameId, token }) {
  const seat = await seatAndKey(gameId, token);
  if (!seat.key) return null;
  const other = await keyForAnotherDevice();
  await sendSigned(seat, gameId, token, "add_device_key", { public_key: other.publicKey });
  return [gameId, seat.holder, seedText(other.seed)];
}

// Drops the device keys a revoked or replaced link carried ([game, holder, seed text] each),
// each signed by this device's own key of its seat: a lost device's key signs nothing after.
// A key the log no longer lists (its seat handed on, its game ended) needs nothing. Returns
// how many are left standing: this device holds no seat or no key to drop them with, or the
// server refused.
export async function dropKeysOf(devices, seats) {
  let left = 0;
  for (const [gameId, holder, seed] of devices) {
    const held = seats.find((s) => s.game_id === gameId);
    try {
      const dropped = await keyIdOfSeed(seed);
      const seat = held ? await seatAndKey(gameId, held.token) : null;
      if (seat && !listedFor(seat.court, holder, dropped)) continue;
      if (!seat?.key || seat.holder !== holder) {
        left += 1;
        continue;
      }
      await sendSigned(seat, gameId, held.token, "drop_device_key", { key_id: dropped });
    } catch {
      left += 1;
    }
  }
  return left;
}

// The keys made for the seats (each {game_id, token}) not in `have` yet, one seat at a time;
// a seat that cannot be keyed now is left out and tried again next time.
export async function keysForNewDevice(seats, have = []) {
  const made = [...have];
  for (const seat of seats) {
    if (made.some(([gameId]) => gameId === seat.game_id)) continue;
    const key = await keyFor(seat).catch(() => null);
    if (key) made.push(key);
  }
  return made;
}

// The keys as a link's fragment carries them after the key's secret, and back: each field
// URI-encoded, so the "," and ";" between them appear nowhere else.
export const devicesPart = (keys) =>
  keys.length ? `&devices=${keys.map((k) => k.map(encodeURIComponent).join(",")).join(";")}` : "";

export function splitFragment(fragment) {
  const [key, devices = ""] = fragment.split("&devices=");
  const keys = devices
    .split(";")
    .filter(Boolean)
    .map((part) => part.split(",").map(decodeURIComponent));
  return { key: decodeURIComponent(key), keys: keys.filter((k) => k.length === 3) };
}

// The keys a link brought, kept on this device for the seats it opened (and no other game);
// a key this device holds already is never replaced by one a link brings.
export async function keepKeys(keys, seats) {
  const opened = new Set(seats.map((s) => s.game_id));
  for (const [gameId, holder, seed] of keys)
    if (opened.has(gameId) && !(await deviceKey(gameId, holder)))
      await keepSeed(gameId, holder, seedOf(seed));
}
