// What a page's device signs for a move (docs/protocol.md, "Signed moves"; the same text as
// court/model/devices.py `move_text`), the `signed` envelope beside a payload, and a sealed
// choice salted here: the page draws the salts of its ballot and bid and signs their
// commitments (the same as elections/markers.py and court/decide/council_seat.py compute),
// never the secret, which travels beside them as the openings.
import { canonical, sha256Hex } from "./witness_crypto.js";

const PREFIX = "small-council move";
const PAD = "pad";
// The openings each sealed message sends beside its signed commitments.
const OPENINGS = { place_ballot: ["markers"], place_bid: ["amount", "salt"] };

export function moveText(gameId, holder, message, payload, version, hash, nonce) {
  return [PREFIX, gameId, holder, message, canonical(payload), version, hash, nonce].join("\n");
}

function randomHex(bytes) {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

// A nonce of 22 letters, digits, - or _ (128 random bits): never the same twice.
export function nonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export const salt = () => randomHex(16);

export const markerCommitment = (kind, candidate, s) => sha256Hex(`${kind}:${candidate}:${s}`);
export const bidCommitment = (amount, s) => sha256Hex(`bid:${amount}:${s}`);

// A ballot or a bid salted on this device, with the commitments its signature covers: the
// markers in the order of their commitments, as the record lists them, each candidate hidden
// in a sealed ballot. Any other payload as it is.
export async function sealed(message, payload, sealedBallots) {
  if (message === "place_bid") {
    const s = salt();
    return { ...payload, salt: s, commitment: await bidCommitment(payload.amount, s) };
  }
  if (message !== "place_ballot" || !payload.markers?.length) return payload;
  const markers = payload.markers.map((m) => ({ ...m, salt: salt() }));
  const placed = await Promise.all(
    markers.map(async (m) => ({ m, c: await markerCommitment(m.kind, m.candidate, m.salt) })),
  );
  placed.sort((a, b) => (a.c < b.c ? -1 : a.c > b.c ? 1 : 0));
  const committed = placed.map(({ m, c }) => ({
    commitment: c,
    candidate: sealedBallots ? null : m.candidate,
  }));
  return { ...payload, markers, committed };
}

// The part of a payload its signature covers: all but the padding and the openings.
export function signedPart(message, payload) {
  const left = new Set([PAD, "signed", ...(OPENINGS[message] ?? [])]);
  return Object.fromEntries(Object.entries(payload).filter(([k]) => !left.has(k)));
}

// The payload with its `signed` envelope: `key` (static/device_keys.js) signs the move on
// `head`, the {version, hash} this page last applied.
export async function signedPayload(key, { gameId, holder, message, payload, head }) {
  const n = nonce();
  const text = moveText(
    gameId,
    holder,
    message,
    signedPart(message, payload),
    head.version,
    head.hash,
    n,
  );
  const signature = await key.sign(new TextEncoder().encode(text));
  return {
    ...payload,
    signed: { key_id: key.keyId, version: head.version, hash: head.hash, nonce: n, signature },
  };
}
