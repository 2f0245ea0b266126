// This device's Ed25519 keys, one per game and holder (a seat, the host's or the game master's
// role; docs/protocol.md, "Signed moves"): made here, the private half kept in IndexedDB as a
// non-extractable WebCrypto key; where WebCrypto has no Ed25519, the audited @noble module served
// beside the pages signs with a seed kept in IndexedDB instead. Nothing here talks to the server.

const DB = "small-council-devices";
const STORE = "keys";
// PKCS #8 of an Ed25519 key is this prefix and the 32-byte seed (RFC 8410).
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);
const ED25519 = { name: "Ed25519" };
let nobleEd = null;
let webCryptoEd = null;

export function base64(bytes) {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

export function bytesOf(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function sha256(bytes) {
  if (globalThis.crypto?.subtle)
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const { sha256: digest } = await import("/vendor/noble-hashes/sha2.js");
  return digest(bytes);
}

// The key id: the first 16 hexadecimal digits of the SHA-256 of the raw public key.
export async function keyIdOf(publicKey) {
  const digest = await sha256(bytesOf(publicKey));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function noble() {
  nobleEd ??= (await import("/vendor/noble-curves/ed25519.js")).ed25519;
  return nobleEd;
}

// Whether this browser's WebCrypto makes and signs with Ed25519 keys (asked once).
async function hasWebCryptoEd() {
  if (webCryptoEd !== null) return webCryptoEd;
  try {
    await crypto.subtle.generateKey(ED25519, false, ["sign", "verify"]);
    webCryptoEd = true;
  } catch {
    webCryptoEd = false;
  }
  return webCryptoEd;
}

function opened() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function stored(mode, act) {
  const db = await opened();
  try {
    return await new Promise((resolve, reject) => {
      const request = act(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

const idOf = (gameId, holder) => `${gameId} ${holder}`;

// A kept key as the page uses it: its id, its public half, and `sign(bytes)` giving base64.
function usable(kept) {
  const sign = kept.privateKey
    ? async (bytes) =>
        base64(new Uint8Array(await crypto.subtle.sign(ED25519, kept.privateKey, bytes)))
    : async (bytes) => base64((await noble()).sign(bytes, kept.seed));
  return { keyId: kept.keyId, publicKey: kept.publicKey, sign };
}

// The key this device holds for `holder` in the game, or null.
export async function deviceKey(gameId, holder) {
  const kept = await stored("readonly", (s) => s.get(idOf(gameId, holder))).catch(() => null);
  return kept ? usable(kept) : null;
}

async function keep(gameId, holder, fields) {
  const kept = { id: idOf(gameId, holder), gameId, holder, ...fields };
  kept.keyId = await keyIdOf(kept.publicKey);
  await stored("readwrite", (s) => s.put(kept));
  return usable(kept);
}

// The key from a seed (32 bytes), kept for `holder`: the private half not extractable again.
export async function keepSeed(gameId, holder, seed) {
  if (await hasWebCryptoEd()) {
    const pkcs8 = new Uint8Array([...PKCS8_PREFIX, ...seed]);
    const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, ED25519, false, ["sign"]);
    const publicKey = base64((await noble()).getPublicKey(seed));
    return keep(gameId, holder, { privateKey, publicKey });
  }
  return keep(gameId, holder, { seed, publicKey: base64((await noble()).getPublicKey(seed)) });
}

// A new key for `holder` on this device, kept; its private half never leaves it.
export async function makeKey(gameId, holder) {
  if (await hasWebCryptoEd()) {
    const pair = await crypto.subtle.generateKey(ED25519, false, ["sign", "verify"]);
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    return keep(gameId, holder, { privateKey: pair.privateKey, publicKey: base64(raw) });
  }
  const seed = crypto.getRandomValues(new Uint8Array(32));
  return keep(gameId, holder, { seed, publicKey: base64((await noble()).getPublicKey(seed)) });
}

// A key pair for another device of the holder's: its seed (to travel in a link's fragment,
// never to the server) and its public half (to register, signed by this device's key).
export async function keyForAnotherDevice() {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  return { seed, publicKey: base64((await noble()).getPublicKey(seed)) };
}

// The key id of the key pair a seed makes (a link's, given as `seedText` writes it).
export async function keyIdOfSeed(text) {
  return keyIdOf(base64((await noble()).getPublicKey(seedOf(text))));
}

// A seed as a link's fragment carries it (base64url, unpadded), and back.
export const seedText = (seed) =>
  base64(seed).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function seedOf(text) {
  const plain = text.replace(/-/g, "+").replace(/_/g, "/");
  return bytesOf(plain + "=".repeat((4 - (plain.length % 4)) % 4));
}

export async function forgetKey(gameId, holder) {
  await stored("readwrite", (s) => s.delete(idOf(gameId, holder))).catch(() => null);
}
