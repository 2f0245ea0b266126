// The court page's device: it keys the viewer's seat or role the first time it holds one (the
// seat's token alone vouches for a holder's first key), signs every command it sends for a keyed
// holder on the head the page last applied, and takes back a keyed seat the bot played, signed.
// A holder keyed on another device plays here only once that device sent a key for this one.

import { playedByBot } from "../panels/bot_seats.js";
import {
  deviceKey,
  forgetKey,
  keepSeed,
  keyForAnotherDevice,
  makeKey,
  seedOf,
  seedText,
} from "./device_keys.js";
import { tokenLink } from "./seat_store.js";
import { sealed, signedPayload } from "./signing.js";

const OPEN = new Set(["lobby", "playing"]);
// Messages no device signs: catching up, and what the table says.
const UNSIGNED = new Set(["sync", "say", "whisper"]);

export const UNKEYED_HERE =
  "Your seat signs its moves with a key kept on another device: this one cannot move for it. On that device, make a link for a new device and open it here.";

export class Device {
  constructor(gameId) {
    this.gameId = gameId;
    this.keying = null;
  }

  // The keys the court view lists for `holder`.
  static keysOf(court, holder) {
    return (court?.devices ?? []).filter((k) => k.holder === holder);
  }

  // This device's key for the viewer, when it is one of the keys the log holds for him.
  async standing(court) {
    const holder = court?.viewer?.holder;
    if (!holder) return null;
    const key = await deviceKey(this.gameId, holder);
    const listed = Device.keysOf(court, holder).some((k) => k.key_id === key?.keyId);
    return key && listed ? key : null;
  }

  // Once welcomed: a page that came to its seat by joining or by a seat's link (a new player,
  // or a seat handed over) keys it at once, when nobody keyed it yet; a page resuming a seat
  // keys it before its first move. A keyed seat the bot played is taken back, signed.
  async welcomed(court, send, fresh) {
    const holder = court?.viewer?.holder;
    if (!holder || !OPEN.has(court.game?.status)) return;
    const keys = Device.keysOf(court, holder);
    if (!keys.length && fresh) {
      await this.first(court, send);
      return;
    }
    const seat = court.viewer.seat;
    if (keys.length && seat !== null && playedByBot(court, seat) && (await this.standing(court)))
      await send("take_seat_back", {});
  }

  // The holder's first key, made here and registered with his token alone (once per page at
  // a time); a key kept from an earlier player of the seat is forgotten.
  first(court, send) {
    const holder = court.viewer.holder;
    this.keying ??= (async () => {
      await forgetKey(this.gameId, holder);
      const key = await makeKey(this.gameId, holder);
      await send("add_device_key", { public_key: key.publicKey }, { unsigned: true });
      return key;
    })().finally(() => {
      this.keying = null;
    });
    return this.keying;
  }

  // A link that plays the seat on another device with a key of its own: the key pair is made
  // here, its public half registered signed by this device's key, and its seed rides in the
  // link's fragment, which browsers never send to the server.
  async linkForAnotherDevice(court, send, token) {
    if (!(await this.standing(court)))
      throw Object.assign(new Error(UNKEYED_HERE), { code: "bad_signature" });
    const other = await keyForAnotherDevice();
    if (!(await send("add_device_key", { public_key: other.publicKey }))) return null;
    return `${tokenLink(this.gameId, token)}&device=${seedText(other.seed)}`;
  }

  // The key a link for another device carried (`#token=…&device=<seed>`), kept for the holder
  // the page was welcomed as.
  async adopt(court, seed) {
    const holder = court?.viewer?.holder;
    if (!holder) return;
    await keepSeed(this.gameId, holder, seedOf(seed));
  }

  // The payload as sent: salted and signed when this device holds the viewer's standing key;
  // as it is for a holder nobody keyed. Refused here, with the server's own sentence, for a
  // keyed holder whose key is on another device.
  async prepared(court, message, payload, send) {
    const holder = court?.viewer?.holder;
    if (!holder || UNSIGNED.has(message) || !OPEN.has(court.game?.status)) return payload;
    const keyed = Device.keysOf(court, holder).length > 0;
    const key = keyed ? await this.standing(court) : await this.first(court, send);
    if (!key) throw Object.assign(new Error(UNKEYED_HERE), { code: "bad_signature" });
    const sealedBallots = court.game?.variants?.sealed_ballots ?? false;
    const body = await sealed(message, payload, sealedBallots);
    const head = { version: court.checkpoint.version, hash: court.checkpoint.hash };
    return signedPayload(key, { gameId: this.gameId, holder, message, payload: body, head });
  }
}
