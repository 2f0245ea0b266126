// The page as a witness of the court's record: every check a page makes of what the server
// shows it lives here (docs/disputes.md). Per game it keeps, on this device, the newest head it
// saw with the server's signed checkpoints, and the hash of every version it checked from
// version 1; it recomputes the hash of every record it shows, checks each checkpoint's Ed25519
// signature with the key the server had at the first visit, and when anything disagrees names
// the first version that does (found by halving with /chain pages) and offers the evidence.
// Checks beside the chain's (a player's own signature on his move) belong in `checkRecord`.
import {
  canonical,
  chainHashes,
  GENESIS,
  linkText,
  sha256Hex,
  signedBy,
  signedText,
} from "./witness_crypto.js";
import { MoveChecks } from "./witness_moves.js";
import {
  HeldChain,
  loadKept,
  loadKey,
  loadTalk,
  saveKept,
  saveKey,
  saveTalk,
} from "./witness_store.js";

// Signed checkpoints kept per game: the first ever seen and the newest ones.
const KEPT = 24;
// The pause between two pages of a check in the background: the page stays the player's.
const PAUSE_MS = 20;
// The most often a pushed checkpoint's signature is checked.
const SIGN_EVERY_MS = 5000;
// Records hashed on the page's own thread at a time, where no worker can be had.
const SLICE = 100;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const idle = (task) =>
  globalThis.requestIdleCallback ? requestIdleCallback(task, { timeout: 1000 }) : setTimeout(task);

// The fields of a record its hash covers: a /chain record as it is, a history entry's or a
// pushed record's own fields with its `hashed` part. Where `hashed` holds no text of the
// public part, the page makes it from the public part it shows (court/views/observer.py).
export function hashedFields(record) {
  const { version, type, recorded_at, seat } = record;
  if (record.hashed) {
    const data_json = record.hashed.data_json ?? canonical(record.data);
    return { version, type, recorded_at, seat, ...record.hashed, data_json };
  }
  return {
    version,
    type,
    recorded_at,
    seat,
    schema_version: record.schema_version,
    data_json: record.data_json ?? canonical(record.data),
    private_sha256: record.private_sha256,
  };
}

let worker = null;
let asked = 0;
const waiting = new Map();

function startWorker() {
  try {
    worker = new Worker(new URL("./witness_worker.js", import.meta.url), { type: "module" });
  } catch {
    worker = false;
    return;
  }
  worker.onmessage = ({ data }) => {
    const task = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.error) task?.reject(new Error(data.error));
    else task?.resolve(data.hashes);
  };
  worker.onerror = (event) => {
    event.preventDefault?.();
    worker = false;
    for (const task of waiting.values()) task.reject(new Error("the witness worker stopped"));
    waiting.clear();
  };
}

// The hashes of `records` chained from `previous`, off the page's thread when it can be.
async function hashRun(gameId, previous, records) {
  const fields = records.map(hashedFields);
  if (worker === null) startWorker();
  if (worker) {
    try {
      return await new Promise((resolve, reject) => {
        asked += 1;
        waiting.set(asked, { resolve, reject });
        worker.postMessage({ id: asked, gameId, previous, records: fields });
      });
    } catch {
      // The worker could not be had: the page's thread hashes, a slice at a time.
    }
  }
  const hashes = [];
  for (let at = 0; at < fields.length; at += SLICE) {
    const run = await chainHashes(gameId, previous, fields.slice(at, at + SLICE));
    hashes.push(...run);
    previous = run.at(-1) ?? previous;
    await pause(0);
  }
  return hashes;
}

let trusted = null;

// The server's keys this device trusts: those it listed at the first visit (then kept), and
// whether it signs with another now (`changed`).
function trustedKeys(fetchJson) {
  trusted ??= (async () => {
    const served = await fetchJson("/api/signing-key");
    const kept = loadKey();
    if (!kept) {
      const keys = Object.fromEntries(served.keys.map((k) => [k.key_id, k.public_key]));
      saveKey({ key_id: served.key_id, public_key: served.public_key, keys });
      return { keys, changed: null };
    }
    const same = kept.keys?.[served.key_id] === served.public_key;
    return { keys: kept.keys ?? {}, changed: same ? null : { kept, served } };
  })().catch((error) => {
    trusted = null;
    throw error;
  });
  return trusted;
}

export class Witness {
  // `fetchJson(path)` answers the server's JSON or throws {status, code}; `onMismatch(found)`
  // is told once what disagrees; `onChecked(kept)` after each good check of a head.
  constructor(gameId, { fetchJson, onMismatch, onChecked }) {
    this.gameId = gameId;
    this.fetchJson = fetchJson;
    this.onMismatch = onMismatch;
    this.onChecked = onChecked;
    this.kept = loadKept(gameId);
    this.held = new HeldChain(gameId);
    this.mismatch = null;
    this.queue = Promise.resolve();
    this.unsigned = null; // the newest checkpoint whose signature waits to be checked
    this.signing = null; // the timer that will check it
    this.signedAt = -Infinity; // when the last one was
    this.shown = null; // {version, hash}: the last record `checkShown` recomputed
    this.probes = []; // the /chain pages read while looking for the first version changed
    this.moves = new MoveChecks(gameId); // the players' signatures, folded from version 1
  }

  // One check at a time, in the order asked; none after a mismatch. A server that cannot be
  // reached now is asked again by the next check.
  run(task) {
    this.queue = this.queue.then(() => (this.mismatch ? null : task())).catch(() => {});
    return this.queue;
  }

  // -- what the server signed ---------------------------------------------------------------

  // A checkpoint of the head the server showed {game_id, version, hash, key_id, signature};
  // `records`, when a push brought them, the records up to it. Cheap: the pushed records are
  // hashed from the kept head, and only the newest checkpoint's signature is checked, when the
  // page is idle.
  see(checkpoint, records = null) {
    if (!checkpoint || checkpoint.game_id !== this.gameId) return this.queue;
    this.signSoon(checkpoint);
    return this.run(() => this.checkHead(checkpoint, records));
  }

  // A checkpoint of a version the page shows (the court as it stood, a comparison's ends):
  // signed by the kept key, and the hash this page holds for that version.
  checkpoint(checkpoint) {
    if (!checkpoint || checkpoint.game_id !== this.gameId) return this.queue;
    return this.run(async () => {
      if (!(await this.signed(checkpoint))) return;
      const mine = await this.hashAt(checkpoint.version);
      if (mine !== null && mine !== checkpoint.hash) await this.rewritten(checkpoint.version);
    });
  }

  // The newest checkpoint's signature, checked when the page is idle and at most every
  // SIGN_EVERY_MS: the pushed records chain to it, so one signature vouches for all of them.
  signSoon(checkpoint) {
    this.unsigned = checkpoint;
    if (this.signing) return;
    const wait = Math.max(0, this.signedAt + SIGN_EVERY_MS - performance.now());
    this.signing = setTimeout(
      () =>
        idle(() => {
          const newest = this.unsigned;
          this.signing = null;
          this.unsigned = null;
          this.signedAt = performance.now();
          this.run(() => this.signed(newest));
        }),
      wait,
    );
  }

  // Whether the checkpoint is signed by a key this device trusts; kept when it is (the
  // evidence holds only signed checkpoints), the mismatch raised when it is not.
  async signed(checkpoint) {
    const keys = await trustedKeys(this.fetchJson);
    if (keys.changed) {
      const { kept, served } = keys.changed;
      this.disagree({
        problem: "key",
        version: checkpoint.version,
        seen_hash: `${kept.key_id} (${kept.public_key})`,
        server_hash: `${served.key_id} (${served.public_key})`,
      });
      return false;
    }
    const key = keys.keys[checkpoint.key_id];
    if (!key || !(await signedBy(key, checkpoint.signature, signedText.checkpoint(checkpoint)))) {
      this.disagree({
        problem: "signature",
        version: checkpoint.version,
        seen_hash: checkpoint.hash,
        server_hash: checkpoint.hash,
        server_checkpoint: checkpoint,
      });
      return false;
    }
    this.keepSigned(checkpoint);
    return true;
  }

  // -- the head -----------------------------------------------------------------------------

  async checkHead(checkpoint, records) {
    await this.held.ready;
    const kept = this.kept;
    if (kept === null) {
      this.keep(checkpoint);
      return;
    }
    if (records && (await this.chainsOn(kept, records, checkpoint))) return;
    if (checkpoint.version <= kept.version) {
      const mine = await this.hashAt(checkpoint.version);
      if (mine !== null && mine !== checkpoint.hash) await this.rewritten(checkpoint.version);
      return;
    }
    await this.followChain(kept.version, checkpoint);
  }

  // Whether `records` are every record after the kept head up to `checkpoint`, each ending on
  // its hash when recomputed from the kept one; the head moves to it when they are.
  async chainsOn(kept, records, checkpoint) {
    const last = records.at(-1);
    if (!last || records[0].version !== kept.version + 1 || last.version !== checkpoint.version)
      return false;
    if (records.some((r, i) => r.version !== kept.version + 1 + i)) return false;
    let previous = kept.hash;
    const hashes = [];
    for (const record of records) {
      previous = await sha256Hex(linkText(this.gameId, previous, hashedFields(record)));
      if (previous !== record.hash) return false;
      hashes.push(previous);
    }
    if (previous !== checkpoint.hash) return false;
    for (const record of records) {
      const told = await this.moves.check(record);
      if (told) {
        this.disagree({ problem: "move", version: record.version, told });
        return true;
      }
    }
    if (this.held.length === kept.version) await this.held.extend(hashes);
    this.keep(checkpoint);
    return true;
  }

  // The chain from the kept head to a newer checkpoint, read in /chain pages and recomputed.
  async followChain(from, checkpoint) {
    const found = await this.readChain(from, checkpoint.version);
    if (found === null) return;
    if (found.hashes.get(checkpoint.version) !== checkpoint.hash) {
      await this.rewritten(checkpoint.version);
      return;
    }
    this.keep(checkpoint);
  }

  // Records `from` to `to` from /chain pages, each recomputed from the one before: their
  // hashes by version, or null once a mismatch was raised (or the server was not reached).
  async readChain(from, to) {
    const hashes = new Map();
    for (let at = from; at <= to; ) {
      const page = await this.chainPage(at, to);
      if (page === null) {
        await this.rewritten(at);
        return null;
      }
      const previous = at === from ? page.prev_hash : hashes.get(at - 1);
      if (!(await this.checkRun(page.records, previous, hashes))) return null;
      if (page.next_from === null) break;
      at = page.next_from;
    }
    return { hashes };
  }

  // A /chain page, or null when the server no longer has version `from`.
  async chainPage(from, to = null) {
    const upto = to === null ? "" : `&to=${to}`;
    const path = `/api/games/${encodeURIComponent(this.gameId)}/chain?from=${from}${upto}`;
    try {
      return await this.fetchJson(path);
    } catch (error) {
      if (error?.status === 404) return null;
      throw error;
    }
  }

  // -- every record shown -------------------------------------------------------------------

  // The records a page shows, in version order (the history's entries, a page at a time from
  // version 1): each recomputed from the one before, against the hash the server gives it, the
  // hash this device holds for its version and the checkpoints it kept.
  checkShown(records) {
    if (!records.length) return this.queue;
    return this.run(() => this.checkShownNow(records));
  }

  async checkShownNow(records) {
    await this.held.ready;
    const first = records[0].version;
    const previous =
      first === 1
        ? GENESIS
        : this.shown?.version === first - 1
          ? this.shown.hash
          : await this.hashAt(first - 1);
    if (previous === null) return;
    const hashes = new Map();
    if (await this.checkRun(records, previous, hashes)) {
      const last = records.at(-1).version;
      this.shown = { version: last, hash: hashes.get(last) };
    }
  }

  // The end of the history: the head it showed, against the server's signed checkpoint of it.
  finishShown(checkpoint) {
    return this.run(async () => {
      if (checkpoint && checkpoint.version < (this.kept?.version ?? 0)) {
        await this.rewritten(this.kept.version); // the server lost versions it showed before
        return;
      }
      if (!checkpoint || this.shown?.version !== checkpoint.version) return;
      if (this.shown.hash !== checkpoint.hash) {
        this.disagree({
          problem: "changed",
          version: checkpoint.version,
          seen_hash: this.shown.hash,
          server_hash: checkpoint.hash,
          server_checkpoint: checkpoint,
        });
        return;
      }
      const newer = checkpoint.version >= (this.kept?.version ?? 0);
      if ((await this.signed(checkpoint)) && newer) this.keep(checkpoint);
    });
  }

  // Recomputes `records` from `previous` (into `hashes` by version); false once one fails.
  async checkRun(records, previous, hashes) {
    const computed = await hashRun(this.gameId, previous, records);
    const fresh = [];
    for (const [index, record] of records.entries()) {
      const hash = computed[index];
      hashes.set(record.version, hash);
      if (!(await this.checkRecord(record, hash))) return false;
      if (record.version === this.held.length + fresh.length + 1) fresh.push(hash);
    }
    if (fresh.length) await this.held.extend(fresh);
    return true;
  }

  // One record, its hash recomputed here: the place for every check of a single record.
  async checkRecord(record, hash) {
    if (hash !== record.hash) {
      this.disagree({
        problem: "changed",
        version: record.version,
        seen_hash: hash,
        server_hash: record.hash,
      });
      return false;
    }
    const mine = await this.hashAt(record.version);
    if (mine !== null && mine !== hash) {
      await this.rewritten(record.version);
      return false;
    }
    const told = await this.moves.check(record);
    if (told) {
      this.disagree({ problem: "move", version: record.version, told });
      return false;
    }
    return true;
  }

  // Every record from version 1, read in pages and checked in order (chain and signatures),
  // for a page that shows moves without reading the whole history; `after` each page.
  checkMoves(after = () => {}) {
    return this.run(() => this.readMoves(after));
  }

  async readMoves(after) {
    for (let from = this.moves.next - 1; ; ) {
      const path = `/api/games/${encodeURIComponent(this.gameId)}/events?after=${from}&limit=200`;
      const page = await this.fetchJson(path);
      if (page.records.length) await this.checkShownNow(page.records);
      after();
      if (page.next_after === null || this.mismatch) return;
      from = page.next_after;
    }
  }

  // Every record up to `version` checked against its player's keys (read from where the fold
  // stands, when it stands before it); settles once they are, or a mismatch was raised.
  movesThrough(version) {
    return this.run(() => (this.moves.next <= version ? this.readMoves(() => {}) : null));
  }

  // What a page may show of a record: "checking" until its check passed, "failed" when it is
  // the move the banner names, else "signed" by its player's device, "unsigned" (a holder with
  // no key) or "checked" (the server's own record).
  verdict(version) {
    if (this.mismatch?.problem === "move" && this.mismatch.version === version) return "failed";
    if (version >= this.moves.next) return "checking";
    return this.moves.marks.get(version) ?? "checked";
  }

  // The hash this device holds for `version`: recomputed in an earlier check, or kept.
  async hashAt(version) {
    if (version === 0) return GENESIS;
    const held = await this.held.at(version);
    if (held !== null) return held;
    if (this.kept?.version === version) return this.kept.hash;
    return this.kept?.checkpoints?.find((c) => c.version === version)?.hash ?? null;
  }

  // The full check in the background (the court page): the chain from the last version held
  // (version 1 the first time) to the head, a /chain page at a time with a pause between them.
  checkInBackground() {
    return this.run(async () => {
      await this.held.ready;
      let at = Math.max(1, this.held.length);
      for (;;) {
        const page = await this.chainPage(at);
        if (page === null) {
          await this.rewritten(at);
          return;
        }
        const hashes = new Map();
        if (!(await this.checkRun(page.records, page.prev_hash, hashes))) return;
        const end = page.checkpoint;
        if (hashes.get(end.version) !== end.hash || !(await this.signed(end))) {
          if (!this.mismatch) await this.rewritten(end.version);
          return;
        }
        if (end.version > (this.kept?.version ?? 0)) this.keep(end);
        if (page.next_from === null) return;
        at = page.next_from;
        await pause(PAUSE_MS);
      }
    });
  }

  // -- talk ---------------------------------------------------------------------------------

  // Talk lines this reader is party to (each channel a chain of its own: court/talk.py): each
  // hash recomputed, each signature checked with the kept key, and each channel's lines
  // chained on from the newest line this device kept of it. A reader checks only the
  // channels he reads, and learns nothing of the others'.
  seeTalk(lines) {
    if (!lines?.length) return this.queue;
    return this.run(async () => {
      const { keys } = await trustedKeys(this.fetchJson);
      const heads = loadTalk(this.gameId);
      const sorted = [...lines].sort((a, b) => a.number - b.number);
      for (const line of sorted) {
        const head = heads[line.channel] ?? null;
        const problem = await talkProblem(line, head, keys);
        if (problem) {
          this.disagree({
            problem: "talk",
            version: line.number,
            channel: line.channel,
            told: problem,
            seen_hash: head?.hash ?? "",
            server_hash: line.hash,
            server_line: line,
          });
          return;
        }
        const signedFrom = Math.min(
          head?.signed_from ?? Number.POSITIVE_INFINITY,
          line.signature ? line.number : Number.POSITIVE_INFINITY,
        );
        const newest = !head || line.number > head.number;
        heads[line.channel] = {
          number: newest ? line.number : head.number,
          hash: newest ? line.hash : head.hash,
          ...(Number.isFinite(signedFrom) ? { signed_from: signedFrom } : {}),
        };
      }
      saveTalk(this.gameId, heads);
    });
  }

  // -- naming the first version changed -----------------------------------------------------

  // The server's hash at `version` now, or null when it has no such record.
  async serverHash(version) {
    const page = await this.chainPage(version, version);
    if (page === null) return null;
    this.probes.push(page);
    return page.records[0]?.hash ?? null;
  }

  // The server's hash at `version` is not the one this device holds: the first version whose
  // hash differs, found by halving between version 0 (the same for all) and it, with /chain
  // pages of one record; past what this device holds, the first version it cannot rule out.
  async rewritten(version) {
    let low = 0;
    let high = version;
    if (high > this.held.length) {
      const top = this.held.length;
      if (top > 0 && (await this.serverHash(top)) !== (await this.held.at(top))) high = top;
      else low = top;
    }
    while (high - low > 1 && high <= this.held.length) {
      const middle = Math.floor((low + high) / 2);
      if ((await this.serverHash(middle)) === (await this.held.at(middle))) low = middle;
      else high = middle;
    }
    const serverHash = await this.serverHash(high);
    this.disagree({
      problem: serverHash === null ? "missing" : "rewritten",
      version: high,
      after: low,
      exact: high - low === 1,
      seen_hash: (await this.hashAt(high)) ?? "",
      server_hash: serverHash ?? "(no such record)",
    });
  }

  // -- what is kept -------------------------------------------------------------------------

  keep(checkpoint) {
    const checkpoints = this.kept?.checkpoints ?? [];
    this.kept = { version: checkpoint.version, hash: checkpoint.hash, checkpoints };
    saveKept(this.gameId, this.kept);
    this.onChecked?.(this.kept);
  }

  // A checkpoint whose signature was checked joins the evidence: the first one ever seen
  // anchors the oldest claim, the newest follow.
  keepSigned(checkpoint) {
    const kept = this.kept ?? { version: checkpoint.version, hash: checkpoint.hash };
    const listed = (kept.checkpoints ?? []).filter((c) => c.version !== checkpoint.version);
    const all = [...listed, checkpoint].sort((a, b) => a.version - b.version);
    const trimmed = all.length > KEPT ? [all[0], ...all.slice(-(KEPT - 1))] : all;
    this.kept = { ...kept, checkpoints: trimmed };
    saveKept(this.gameId, this.kept);
  }

  async disagree(found) {
    if (this.mismatch) return;
    this.mismatch = found;
    const { version } = found;
    this.mismatch = {
      game_id: this.gameId,
      problem: "rewritten",
      ...found,
      detected_at: new Date().toISOString(),
      // What this device held around the version named: its own recomputed hashes.
      held: Object.fromEntries(
        (await Promise.all([version - 1, version].map(async (v) => [v, await this.hashAt(v)])))
          .filter(([v, hash]) => v > 0 && hash !== null)
          .map(([v, hash]) => [String(v), hash]),
      ),
      // What the server signed before, and what it shows now.
      checkpoints: this.kept?.checkpoints ?? [],
      server_chain: this.probes,
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

export { canonical, GENESIS, linkText, sha256Hex };

// The fields of a talk line its hash covers (court/talk.py `hashed_fields`).
function talkFields(line) {
  const { game_id, channel, number, court_version, sender, recipients, said_at, text } = line;
  return { game_id, channel, number, court_version, sender, recipients, said_at, text };
}

// Why a talk line cannot be believed after the channel's kept `head`, or null. A line with
// no signature was said before the server signed talk lines: believed as far as its chain
// goes when it comes before the first signed line this device saw of its channel (court/talk.py
// `check_channel`: once a line is signed, every later one is), and marked unsigned where it
// is shown.
async function talkProblem(line, head, keys) {
  const hash = await sha256Hex(`${line.prev_hash}\n${canonical(talkFields(line))}`);
  if (hash !== line.hash) return "it does not hash to the hash the server gives it";
  if (!line.signature && line.number >= (head?.signed_from ?? Number.POSITIVE_INFINITY))
    return `it carries no signature, though this device saw line ${head.signed_from} of its channel signed`;
  if (!line.signature) return chainProblem(line, head);
  const text = signedText.talk(line);
  const signed = await Promise.all(
    Object.values(keys).map((k) => signedBy(k, line.signature, text)),
  );
  if (!signed.some(Boolean)) return "it is not signed by the key this device kept";
  return chainProblem(line, head);
}

// Whether a talk line agrees with what this device kept of its channel.
function chainProblem(line, head) {
  if (head && line.number === head.number && line.hash !== head.hash)
    return `this device kept the hash ${head.hash} for it; the server now says ${line.hash}`;
  if (head && line.number === head.number + 1 && line.prev_hash !== head.hash)
    return `it does not follow the hash ${head.hash} this device kept for the line before`;
  return null;
}

// What the banner says happened, by the problem found.
function told(found) {
  const at = `version ${found.version}`;
  switch (found.problem) {
    case "changed":
      return `The record of ${at} does not hash to the hash the server gives it (${found.server_hash}; recomputed here: ${found.seen_hash}): it was changed in place. `;
    case "missing":
      return `The server no longer has ${at}, which this device saw. `;
    case "signature":
      return `The server's checkpoint of ${at} is not signed by the key this device kept from its first visit. `;
    case "talk":
      return `Line ${found.version} of the ${found.channel === "table" ? "table talk" : "whispers"} (${found.channel}) cannot be believed: ${found.told}. `;
    case "move":
      return `The record of ${at} is shown as a player's move, and no device of his vouches for it: ${found.told}. `;
    case "key":
      return `The server now signs with the key ${found.server_hash}; this device kept ${found.seen_hash} from its first visit. `;
    default: {
      const first = found.exact
        ? `${at} is the first that differs`
        : `the first version that differs is after version ${found.after} and at or before ${found.version}`;
      return `At ${at} this device kept the hash ${found.seen_hash}; the server now says ${found.server_hash}: ${first}. `;
    }
  }
}

// The banner every player of this page sees when the record disagrees with what it kept.
export function showMismatch(banner, witness, found, h) {
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
    told(found),
    "Someone changed the record after you saw it, or the server shows you another story than before. ",
    "Keep the evidence (the server's own signed checkpoints) and show it to the table. ",
    download,
  );
  banner.dataset.version = String(found.version);
  banner.dataset.problem = found.problem;
  banner.hidden = false;
}
