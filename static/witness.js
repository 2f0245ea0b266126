// The page as a witness of the court's record. Per game it keeps, on this device, the newest
// version and hash it has seen, with the server's signed checkpoints of them; on every court
// view it is shown it checks that the server's record at the kept version still has the kept
// hash and that the newer records chain from it, recomputing every hash itself (README,
// "Checking the record yourself"). A server that tells another story is caught here, and the
// evidence can be downloaded.

const STORE = "small-council.witness.";
// Signed checkpoints kept per game: the first ever seen and the newest ones.
const KEPT = 24;
const GENESIS = "0".repeat(64);

async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  let digest;
  if (globalThis.crypto?.subtle) {
    digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  } else {
    // WebCrypto exists only in a secure context (https, or this machine): a page opened over
    // plain http on a home network hashes with a small library served beside the pages.
    const { sha256 } = await import("/vendor/noble-hashes/sha2.js");
    digest = sha256(bytes);
  }
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// hash(n) = SHA-256( hash(n-1) "\n" meta "\n" data "\n" private_sha256 ), meta being the
// canonical JSON (sorted keys, no spaces) of the record's game, version, type, schema version,
// time and seat; `data_json` comes from the server exactly as it was hashed.
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

// The one JSON form the chain hashes (court/chain.py `canonical`): keys sorted, no spaces.
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

function load(gameId) {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE + gameId));
    return kept && Number.isInteger(kept.version) && typeof kept.hash === "string" ? kept : null;
  } catch {
    return null;
  }
}

function save(gameId, kept) {
  try {
    localStorage.setItem(STORE + gameId, JSON.stringify(kept));
  } catch {
    // A full or forbidden storage: the check still runs for as long as the page is open.
  }
}

export class Witness {
  // `fetchJson(path)` answers the server's JSON or throws {status, code}; `onMismatch(found)`
  // is told once what disagrees; `onChecked(kept)` after each good check.
  constructor(gameId, { fetchJson, onMismatch, onChecked }) {
    this.gameId = gameId;
    this.fetchJson = fetchJson;
    this.onMismatch = onMismatch;
    this.onChecked = onChecked;
    this.kept = load(gameId);
    this.mismatch = null;
    this.queue = Promise.resolve();
  }

  // A checkpoint of the head the server showed: {game_id, version, hash, key_id, signature};
  // `records`, when a push brought them, the records up to it.
  see(checkpoint, records = null) {
    if (!checkpoint || checkpoint.game_id !== this.gameId) return this.queue;
    this.queue = this.queue.then(() => this.check(checkpoint, records)).catch(() => {});
    return this.queue;
  }

  async check(checkpoint, records = null) {
    if (this.mismatch) return;
    const kept = this.kept;
    if (kept === null) {
      this.keep(checkpoint);
      return;
    }
    // The records a push brought, when they follow the kept version: their hashes recomputed
    // here from the kept hash need no request. Any doubt asks the server for the chain below.
    if (records && (await this.chainsOn(kept, records, checkpoint))) {
      this.keep(checkpoint);
      return;
    }
    if (checkpoint.version === kept.version) {
      if (checkpoint.hash !== kept.hash) this.disagree(kept, checkpoint.hash, checkpoint);
      return;
    }
    if (checkpoint.version < kept.version && checkpoint.hash === kept.hash) return;
    const found = await this.chainFrom(kept, Math.max(kept.version, checkpoint.version));
    if (found === null) return; // the server could not be asked now: the next view asks again
    if (found.problem) {
      this.disagree(kept, found.hash, checkpoint, found);
      return;
    }
    if (checkpoint.version > kept.version) {
      if (found.hashes.get(checkpoint.version) !== checkpoint.hash) {
        this.disagree(
          { version: checkpoint.version, hash: found.hashes.get(checkpoint.version) ?? "" },
          checkpoint.hash,
          checkpoint,
          found,
        );
        return;
      }
      this.keep(checkpoint);
    }
  }

  // The records from the kept version up to `to`, their hashes recomputed here: {hashes} when
  // they chain from what this page kept, {problem, hash} where they do not, null when the
  // server could not be reached.
  async chainFrom(kept, to) {
    const hashes = new Map();
    let from = kept.version;
    let previous = null;
    const pages = [];
    for (;;) {
      let page;
      try {
        page = await this.fetchJson(
          `/api/games/${encodeURIComponent(this.gameId)}/chain?from=${from}&to=${to}`,
        );
      } catch (error) {
        if (error?.status === 404 && from === kept.version) {
          return { problem: "missing", hash: "", pages };
        }
        return null;
      }
      pages.push(page);
      if (previous === null) previous = page.prev_hash;
      for (const record of page.records) {
        const hash = await sha256Hex(linkText(this.gameId, previous, record));
        if (hash !== record.hash) {
          return { problem: "broken", version: record.version, hash: record.hash, pages };
        }
        if (record.version === kept.version && hash !== kept.hash) {
          return { problem: "rewritten", hash, pages };
        }
        hashes.set(record.version, hash);
        previous = hash;
      }
      if (page.next_from === null || page.next_from > to || !page.records.length) break;
      from = page.next_from;
    }
    if (!hashes.has(kept.version)) return { problem: "missing", hash: "", pages };
    return { hashes, pages };
  }

  // Whether `records` are every record after the kept version up to `checkpoint`, each ending
  // on its hash when recomputed from the kept one (their public part in canonical JSON).
  async chainsOn(kept, records, checkpoint) {
    const last = records.at(-1);
    if (!last || records[0].version !== kept.version + 1 || last.version !== checkpoint.version)
      return false;
    let previous = kept.hash;
    for (const [index, record] of records.entries()) {
      if (record.version !== kept.version + 1 + index) return false;
      const text = linkText(this.gameId, previous, {
        ...record,
        data_json: canonical(record.data),
      });
      previous = await sha256Hex(text);
      if (previous !== record.hash) return false;
    }
    return previous === checkpoint.hash;
  }

  keep(checkpoint) {
    const previous = this.kept?.checkpoints ?? [];
    const checkpoints = [...previous, checkpoint];
    // The first checkpoint ever seen is kept with the newest: it anchors the oldest claim.
    const trimmed =
      checkpoints.length > KEPT ? [checkpoints[0], ...checkpoints.slice(-(KEPT - 1))] : checkpoints;
    this.kept = { version: checkpoint.version, hash: checkpoint.hash, checkpoints: trimmed };
    save(this.gameId, this.kept);
    this.onChecked?.(this.kept);
  }

  disagree(kept, serverHash, checkpoint, found = null) {
    this.mismatch = {
      game_id: this.gameId,
      version: kept.version,
      seen_hash: kept.hash,
      server_hash: serverHash || "(no such record)",
      problem: found?.problem ?? "rewritten",
      detected_at: new Date().toISOString(),
      // What this page was shown before, signed by the server, and what it shows now.
      checkpoints: this.kept?.checkpoints ?? [],
      server_checkpoint: checkpoint,
      server_chain: found?.pages ?? [],
    };
    this.onMismatch?.(this.mismatch);
  }

  // The evidence as a file a player can keep and hand to the table (or to `flask court
  // verify --witness`).
  evidence() {
    const body = this.mismatch ?? {
      game_id: this.gameId,
      checkpoints: this.kept?.checkpoints ?? [],
    };
    return new Blob([JSON.stringify(body, null, 2)], { type: "application/json" });
  }
}

export { GENESIS, sha256Hex };

// The banner every player of this page sees when the record disagrees with what it kept.
export function showMismatch(banner, witness, found, h) {
  const what =
    found.problem === "missing"
      ? `the server no longer has version ${found.version}`
      : `the server now says ${found.server_hash}`;
  const download = h(
    "button",
    {
      type: "button",
      onclick: () => {
        const url = URL.createObjectURL(witness.evidence());
        const link = h("a", {
          href: url,
          download: `small-council-${found.game_id}-evidence.json`,
        });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10000);
      },
    },
    "Download the evidence",
  );
  banner.replaceChildren(
    h("strong", {}, "The court's record is not the one this page saw. "),
    `At version ${found.version} this device kept the hash ${found.seen_hash}; ${what}. `,
    "Someone changed the record after you saw it, or the server shows you another story than before. ",
    "Keep the evidence (the server's own signed checkpoints) and show it to the table. ",
    download,
  );
  banner.hidden = false;
}
