// The witness's hashing off the page's thread: the hashes of a run of records, chained from the
// hash before them (static/lib/witness_crypto.js), so that checking a long log never holds the tab.
import { chainHashes } from "./witness_crypto.js";

self.onmessage = async ({ data }) => {
  const { id, gameId, previous, records } = data;
  try {
    self.postMessage({ id, hashes: await chainHashes(gameId, previous, records) });
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
};
