// What the witness (static/lib/witness.js) keeps on this device: per game the newest version and
// hash it saw with the server's signed checkpoints (localStorage), the hash of every version it
// checked from version 1 (IndexedDB: a long log's hashes outgrow localStorage), and per talk
// channel the newest line it saw; per server, the public key it signed with at the first visit.

const STORE = "small-council.witness.";
const KEY = "small-council.witness-key";
const TALK = "small-council.witness-talk.";
// Versions a stored chunk of the held chain holds: 1,024 hashes of 64 hexadecimal digits.
const CHUNK = 1024;
const FLUSH_MS = 1000;

function read(name) {
  try {
    return JSON.parse(localStorage.getItem(name));
  } catch {
    return null;
  }
}

function write(name, value) {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch {
    // A full or forbidden storage: the check still runs for as long as the page is open.
  }
}

// {version, hash, checkpoints}: the newest head the page checked and the checkpoints kept.
export function loadKept(gameId) {
  const kept = read(STORE + gameId);
  return kept && Number.isInteger(kept.version) && typeof kept.hash === "string" ? kept : null;
}

export const saveKept = (gameId, kept) => write(STORE + gameId, kept);

// {key_id, public_key, keys: {key_id: public_key}}: the server's keys as first seen here.
export const loadKey = () => read(KEY);
export const saveKey = (key) => write(KEY, key);

// {channel: {number, hash}}: the newest line seen of each talk channel of a game.
export const loadTalk = (gameId) => read(TALK + gameId) ?? {};
export const saveTalk = (gameId, heads) => write(TALK + gameId, heads);

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

let database = null;
function open() {
  database ??= (async () => {
    const req = indexedDB.open("small-council-witness", 1);
    req.onupgradeneeded = () => req.result.createObjectStore("chains");
    return request(req);
  })().catch(() => null);
  return database;
}

// The hashes of versions 1 to `length` of a game as this device recomputed them, read and
// written a chunk at a time; held in memory alone where IndexedDB is refused.
export class HeldChain {
  constructor(gameId) {
    this.gameId = gameId;
    this.length = 0;
    this.chunks = new Map();
    this.touched = new Set(); // chunks changed since the last write
    this.flushing = null;
    this.ready = this.load();
    addEventListener("pagehide", () => this.flush());
    addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.flush();
    });
  }

  async load() {
    const db = await open();
    if (!db) return;
    const length = await request(db.transaction("chains").objectStore("chains").get(this.gameId));
    this.length = Number.isInteger(length) ? length : 0;
  }

  async chunk(index) {
    if (!this.chunks.has(index)) {
      const db = await open();
      const key = `${this.gameId}:${index}`;
      const found = db
        ? await request(db.transaction("chains").objectStore("chains").get(key))
        : "";
      if (!this.chunks.has(index)) this.chunks.set(index, typeof found === "string" ? found : "");
    }
    return this.chunks.get(index);
  }

  // The hash held for `version` (GENESIS's place, 0, is never asked), or null.
  async at(version) {
    if (version < 1 || version > this.length) return null;
    const index = Math.floor((version - 1) / CHUNK);
    const offset = ((version - 1) % CHUNK) * 64;
    return (await this.chunk(index)).slice(offset, offset + 64) || null;
  }

  // Adds the hashes of the versions after `length`: held at once, written to IndexedDB at most
  // every FLUSH_MS (a push adds one or two; a chunk is rewritten whole) and when the page hides.
  async extend(hashes) {
    let version = this.length;
    for (const hash of hashes) {
      const index = Math.floor(version / CHUNK);
      this.chunks.set(index, (await this.chunk(index)) + hash);
      this.touched.add(index);
      version += 1;
    }
    this.length = version;
    this.flushing ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  async flush() {
    clearTimeout(this.flushing);
    this.flushing = null;
    const db = await open();
    if (!db || !this.touched.size) return;
    const tx = db.transaction("chains", "readwrite");
    const store = tx.objectStore("chains");
    for (const index of this.touched) store.put(this.chunks.get(index), `${this.gameId}:${index}`);
    store.put(this.length, this.gameId);
    this.touched.clear();
    await new Promise((resolve) => {
      tx.oncomplete = tx.onerror = tx.onabort = resolve;
    });
  }
}
