// The court page's device: it keys the viewer's seat or role the first time it holds one (the
// seat's token alone vouches for a holder's first key), signs every command it sends for a keyed
// holder on the head the page last applied, and takes back a keyed seat the bot played, signed.
// A holder keyed on another device plays here only once that device sent a key for this one.
import { playedByBot } from "./bot_seats.js";
import { deviceKey, forgetKey, makeKey } from "./device_keys.js";
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

  // Once welcomed: key the holder when nobody keyed him yet (a key kept from an earlier
  // player of the seat is forgotten), and come back to a keyed seat the bot played.
  async welcomed(court, send) {
    const holder = court?.viewer?.holder;
    if (!holder || !OPEN.has(court.game?.status)) return;
    this.keying ??= this.#keyed(court, holder, send).finally(() => {
      this.keying = null;
    });
    await this.keying;
  }

  async #keyed(court, holder, send) {
    const keys = Device.keysOf(court, holder);
    if (!keys.length) {
      await forgetKey(this.gameId, holder);
      const key = await makeKey(this.gameId, holder);
      await send("add_device_key", { public_key: key.publicKey }, { unsigned: true });
      return;
    }
    const seat = court.viewer.seat;
    if (seat !== null && playedByBot(court, seat) && (await this.standing(court)))
      await send("take_seat_back", {});
  }

  // The payload as sent: salted and signed when this device holds the viewer's standing key;
  // as it is for a holder nobody keyed. Refused here, with the server's own sentence, for a
  // keyed holder whose key is on another device.
  async prepared(court, message, payload) {
    const holder = court?.viewer?.holder;
    if (!holder || UNSIGNED.has(message) || !Device.keysOf(court, holder).length) return payload;
    const key = await this.standing(court);
    if (!key) throw Object.assign(new Error(UNKEYED_HERE), { code: "bad_signature" });
    const sealedBallots = court.game?.variants?.sealed_ballots ?? false;
    const body = await sealed(message, payload, sealedBallots);
    const head = { version: court.checkpoint.version, hash: court.checkpoint.hash };
    return signedPayload(key, { gameId: this.gameId, holder, message, payload: body, head });
  }
}
