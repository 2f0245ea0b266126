// The arithmetic of the witness (static/lib/witness.js): SHA-256, the hash chain's formula and the
// Ed25519 check of the server's signatures; WebCrypto where the page has it, else the audited
// @noble modules served beside the pages (/vendor/). Nothing here keeps or fetches anything.

export const GENESIS = "0".repeat(64);
const encoder = new TextEncoder();
let nobleSha = null;

function hex(bytes) {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

export async function sha256Hex(text) {
  const bytes = encoder.encode(text);
  if (globalThis.crypto?.subtle) {
    return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
  }
  // WebCrypto exists only in a secure context (https, or this machine): a page opened over
  // plain http on a home network hashes with a small library served beside the pages.
  nobleSha ??= (await import("/vendor/noble-hashes/sha2.js")).sha256;
  return hex(nobleSha(bytes));
}

// hash(n) = SHA-256( hash(n-1) "\n" meta "\n" data "\n" private_sha256 ), meta being the
// canonical JSON (sorted keys, no spaces) of the record's game, version, type, schema version,
// time and seat; `data_json` is the public part's canonical JSON as the server hashed it.
export function linkText(gameId, previous, record) {
  const meta = JSON.stringify({
    game_id: gameId,
    recorded_at: record.recorded_at,
    schema_version: record.schema_version,
    seat: record.seat,
    type: record.type,
    version: record.version,
  });
  return `${previous}\n${meta}\n${record.data_json}\n${record.private_sha256}`;
}

// The one JSON form the chain hashes (court/log/chain.py `canonical`): keys sorted, no spaces.
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

// The hashes of `records` chained one after another from `previous`: each recomputed from its
// own fields, whatever hash the server gave it.
export async function chainHashes(gameId, previous, records) {
  const hashes = [];
  for (const record of records) {
    previous = await sha256Hex(linkText(gameId, previous, record));
    hashes.push(previous);
  }
  return hashes;
}

// The texts the server's signatures cover (server/keys/signing.py).
export const signedText = {
  checkpoint: (c) => `small-council checkpoint\n${c.game_id}\n${c.version}\n${c.hash}`,
  talk: (l) => `small-council talk\n${l.game_id}\n${l.channel}\n${l.number}\n${l.hash}`,
};

function bytesOf(base64) {
  const text = atob(base64);
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

const imported = new Map();
let nobleEd = null;

// Whether `signature` (base64) is the Ed25519 signature of `text` by `publicKey` (base64 of
// its 32 raw bytes). A malformed key or signature is simply not a good signature.
export async function signedBy(publicKey, signature, text) {
  let key, sig;
  try {
    key = bytesOf(publicKey);
    sig = bytesOf(signature);
  } catch {
    return false;
  }
  if (key.length !== 32 || sig.length !== 64) return false;
  const message = encoder.encode(text);
  if (globalThis.crypto?.subtle && imported.get(publicKey) !== null) {
    try {
      if (!imported.has(publicKey))
        imported.set(
          publicKey,
          await crypto.subtle.importKey("raw", key, { name: "Ed25519" }, false, ["verify"]),
        );
      return await crypto.subtle.verify({ name: "Ed25519" }, imported.get(publicKey), sig, message);
    } catch {
      // This browser's WebCrypto has no Ed25519: the library checks it, now and after.
      imported.set(publicKey, null);
    }
  }
  nobleEd ??= (await import("/vendor/noble-curves/ed25519.js")).ed25519;
  try {
    return nobleEd.verify(sig, message, key);
  } catch {
    return false;
  }
}
