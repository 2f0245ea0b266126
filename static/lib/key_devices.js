// The device keys a "my key" link hands a new device: for each seat this device keyed, a key
// pair made here, its public half registered signed by this device's key (the seat's token
// alone adds no second key), its seed carried in the link's fragment, which no browser sends.
import { call } from "./api.js";
import { deviceKey, keepSeed, keyForAnotherDevice, seedOf, seedText } from "./device_keys.js";
import { signedPayload } from "./signing.js";

// A key for another device of the seat's holder, registered: [game, holder, seed text], or
// null where this device holds no standing key of the seat (the new device then plays it
// unkeyed, or not at all when another device keyed it).
async function keyFor({ game_id: gameId, token }) {
  const api = `/api/games/${encodeURIComponent(gameId)}`;
  const court = await call("GET", api, undefined, token);
  const holder = court.viewer?.holder;
  const key = holder ? await deviceKey(gameId, holder) : null;
  const listed = (court.devices ?? []).some((k) => k.holder === holder && k.key_id === key?.keyId);
  if (!listed) return null;
  const other = await keyForAnotherDevice();
  const head = { version: court.checkpoint.version, hash: court.checkpoint.hash };
  const payload = { public_key: other.publicKey };
  const body = await signedPayload(key, {
    gameId,
    holder,
    message: "add_device_key",
    payload,
    head,
  });
  await call("POST", `${api}/commands/add_device_key`, body, token);
  return [gameId, holder, seedText(other.seed)];
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
