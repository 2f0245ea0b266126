// The witness's check that every move it shows was signed by its player's device (the page's
// half of court/audit/signatures.py): fed every record from version 1 in order, it folds the
// keys the log recorded for each seat and role, checks each `MoveSigned` against them and
// believes a keyed holder's record only inside the span of the signed move before it. A holder
// with no key is marked unsigned beside his moves; what the server records alone is its own.

import { moveText } from "./signing.js";
import { signedBy } from "./witness_crypto.js";

// Records the key service makes with a person's gathered token, by no device.
const UNSIGNED_TYPES = new Set(["SeatLinkAdded", "SeatLinkDropped"]);
// Records whose fold takes a seat's keys with it (court/evolve/seats.py, setup.py).
const SEAT_GOES = new Set(["SeatHanded", "SeatRemoved", "SeatLeft"]);
const HOST_MOVES = new Set(["HostHandedOver", "HostTakenOver"]);
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

// A record's public part, in each shape a page reads one: an event page's or a push's `data`,
// a push's `hashed` fields, or a /chain page's record as hashed (`data_json` beside `version`).
const dataOf = (record) => {
  if (record.data) return record.data;
  const text = record.hashed?.data_json ?? record.data_json;
  return text ? JSON.parse(text) : {};
};
const seatOf = (holder) => (holder.startsWith("seat:") ? Number(holder.slice(5)) : null);
const who = (holder) =>
  holder.startsWith("seat:")
    ? `seat ${holder.slice(5)}`
    : holder === "master"
      ? "the game master"
      : "the host";

export class MoveChecks {
  constructor(gameId) {
    this.gameId = gameId;
    this.next = 1; // the version the fold expects next
    this.keys = new Map(); // key id -> {holder, publicKey, nonces}
    this.span = null; // the signed move whose records are still coming
    this.bots = new Set(); // the seats the bot plays
    this.bot = null; // the seat and time of the bot's move under way
    this.marks = new Map(); // version -> "signed" | "unsigned"
  }

  keyed(holder) {
    for (const k of this.keys.values()) if (k.holder === holder) return true;
    return false;
  }

  // Why the record cannot be believed as its player's move, or null; the fold moves on.
  // A record it cannot read (a part missing or mistyped) is a problem too: the fold never
  // steps past a record it did not judge.
  async check(record) {
    if (record.version !== this.next) return null;
    let problem;
    try {
      const data = dataOf(record);
      problem =
        record.type === "MoveSigned"
          ? await this.signed(record, data)
          : this.span
            ? this.covered(record)
            : this.unsigned(record, data);
      this.fold(record, data);
    } catch (error) {
      problem = `a record this page cannot read (${error.message})`;
    }
    this.next += 1;
    return problem;
  }

  async signed(record, e) {
    if (this.span) return this.cutShort();
    const key = this.keys.get(e.key_id);
    if ((record.seat ?? null) !== seatOf(e.holder))
      return `a move signed for ${who(e.holder)} is recorded for seat ${record.seat}`;
    if (!key || key.holder !== e.holder)
      return `a move of ${who(e.holder)} signed by key ${e.key_id}, which ${who(e.holder)} does not hold here`;
    if (!NONCE.test(e.nonce) || key.nonces.has(e.nonce))
      return `a move of ${who(e.holder)} whose nonce was taken before`;
    const text = moveText(this.gameId, e.holder, e.message, e.payload, e.version, e.hash, e.nonce);
    if (!(await signedBy(key.publicKey, e.signature, text)))
      return `a move of ${who(e.holder)} whose signature by key ${e.key_id} does not match it`;
    if (!(e.records >= 1)) return "a signed move that led to no record";
    key.nonces.add(e.nonce);
    this.span = { holder: e.holder, seat: record.seat, left: e.records, at: record.recorded_at };
    this.span.from = record.version;
    this.marks.set(record.version, "signed");
    return null;
  }

  covered(record) {
    const span = this.span;
    const seat = record.seat ?? null;
    const by = seat === span.seat || seat !== null; // a ballot's record names its own seat
    if (!by || record.recorded_at !== span.at) return this.cutShort();
    span.left -= 1;
    if (span.left === 0) this.span = null;
    this.marks.set(record.version, "signed");
    return null;
  }

  cutShort() {
    const span = this.span;
    this.span = null;
    return `the move signed at version ${span.from} names ${span.left} more record(s) of ${who(span.holder)} than follow it`;
  }

  unsigned(record, data) {
    if (record.type === "BotPlayed" && this.bots.has(data.seat)) {
      this.bot = `${record.seat} ${record.recorded_at}`;
      return null;
    }
    if (this.bot === `${record.seat} ${record.recorded_at}`) return null;
    this.bot = null;
    const holder =
      record.seat !== null && record.seat !== undefined
        ? `seat:${record.seat}`
        : record.type === "FactRecorded"
          ? data.by === "host"
            ? "host"
            : "master"
          : null;
    if (holder === null || UNSIGNED_TYPES.has(record.type)) return null;
    if (this.keyed(holder)) return `a move of ${who(holder)} that no key of ${who(holder)} signed`;
    this.marks.set(record.version, "unsigned");
    return null;
  }

  // The keys and the bot's seats after the record, as the court folds them.
  fold(record, data) {
    const drop = (holder) => {
      for (const [id, k] of this.keys) if (k.holder === holder) this.keys.delete(id);
    };
    if (record.type === "DeviceKeyAdded")
      this.keys.set(data.key_id, {
        holder: data.holder,
        publicKey: data.public_key,
        nonces: new Set(),
      });
    else if (record.type === "DeviceKeyDropped") this.keys.delete(data.key_id);
    else if (SEAT_GOES.has(record.type)) drop(`seat:${data.seat}`);
    else if (HOST_MOVES.has(record.type) || (record.type === "SeatJoined" && data.host))
      drop("host");
    else if (record.type === "BotSeated") this.bots.add(data.seat);
    else if (record.type === "BotStoodDown") this.bots.delete(data.seat);
  }
}
