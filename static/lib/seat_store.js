// Where a browser keeps its seats: a seat's token lives in this tab's sessionStorage, so each
// window can hold its own seat; the tokens this device was given are also kept per game in
// localStorage so a closed tab can resume its seat. Tokens never go into a URL the server sees:
// the game master's link carries his token in the fragment (#token=...), which browsers do not
// send, and the page drops it at once.

const tabKey = (gameId) => `token:${gameId}`;
const deviceKey = (gameId) => `seats:${gameId}`;

export function tokenFor(gameId) {
  return sessionStorage.getItem(tabKey(gameId));
}

// A token is kept for this tab only; `remember` also keeps it on this device (localStorage),
// so another tab or a later visit can resume the seat.
export function saveToken(gameId, token, label, remember = false) {
  sessionStorage.setItem(tabKey(gameId), token);
  if (remember) rememberToken(gameId, token, label);
}

export function rememberToken(gameId, token, label) {
  const kept = keptSeats(gameId).filter((s) => s.token !== token);
  kept.push({ token, label });
  localStorage.setItem(deviceKey(gameId), JSON.stringify(kept));
}

export function remembered(gameId, token) {
  return keptSeats(gameId).some((s) => s.token === token);
}

export function forgetToken(gameId) {
  sessionStorage.removeItem(tabKey(gameId));
}

// This tab's token, forgotten by the tab and by the device.
export function forgetSeat(gameId) {
  const token = tokenFor(gameId);
  forgetToken(gameId);
  if (token) dropKept(gameId, token);
}

// [{token, label}] this device was asked to remember for the game (label: "Eddard, House Stark").
export function keptSeats(gameId) {
  try {
    return JSON.parse(localStorage.getItem(deviceKey(gameId)) ?? "[]");
  } catch {
    return [];
  }
}

export function dropKept(gameId, token) {
  localStorage.setItem(
    deviceKey(gameId),
    JSON.stringify(keptSeats(gameId).filter((s) => s.token !== token)),
  );
}

// A link that opens a seat (or the game master's role) on another device: the token rides in
// the fragment, which the browser never sends to the server.
export function tokenLink(gameId, token) {
  return `${window.location.origin}/games/${gameId}#token=${encodeURIComponent(token)}`;
}

// The game master's token, kept on the host's device so the host can hand over the link.
const masterKey = (gameId) => `master:${gameId}`;
export function keepMasterToken(gameId, token) {
  localStorage.setItem(masterKey(gameId), token);
}
export function masterLink(gameId) {
  const token = localStorage.getItem(masterKey(gameId));
  return token ? tokenLink(gameId, token) : null;
}

// A link opened with #token=... (a seat link, the game master's): take it out of the address bar
// and the browser history at once, and keep the token for this tab and game. A tab that plays
// another token of the game already keeps its own unless the person says so (`ask` resolves
// true): a link someone sent must not silently put his seat in the place of yours.
export async function adoptLinkToken(gameId, ask) {
  // A link for a new device also carries its key's seed (`&device=`, static/lib/device.js).
  const match = window.location.hash.match(/^#token=([^&]+)(?:&device=[A-Za-z0-9_-]+)?$/);
  if (!match) return;
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  const token = decodeURIComponent(match[1]);
  const mine = tokenFor(gameId);
  if (mine && mine !== token && !(await ask())) return;
  saveToken(gameId, token, "from a link");
}

// A tab with no token of its own plays the seat this device remembers for the game, when it
// remembers one (with several, the page offers each to resume).
export function adoptKeptSeat(gameId) {
  const kept = keptSeats(gameId);
  if (!tokenFor(gameId) && kept.length === 1) sessionStorage.setItem(tabKey(gameId), kept[0].token);
}

// -- private games --------------------------------------------------------------------------
// The host's invite link carries the game's invite secret in the fragment (#invite=...): the
// page keeps it for this tab, takes it out of the address bar, and sends it with `join`.
const inviteKey = (gameId) => `invite:${gameId}`;
export function inviteFor(gameId) {
  return sessionStorage.getItem(inviteKey(gameId));
}

export function adoptInvite(gameId) {
  const match = window.location.hash.match(/^#invite=([^&]+)$/);
  if (!match) return;
  sessionStorage.setItem(inviteKey(gameId), decodeURIComponent(match[1]));
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
}

export function inviteLink(gameId, invite) {
  const page = `${window.location.origin}/games/${gameId}`;
  return invite ? `${page}#invite=${encodeURIComponent(invite)}` : page;
}

// The games this browser holds a seat in: every `token:<game>` and `seats:<game>` key in this
// tab's sessionStorage and in localStorage (a device asked to remember keeps its tokens there),
// as [{gameId, tokens: [{token, label}]}].
const GAME_KEY = /^(token|seats):(.+)$/;

function entries(storage) {
  const found = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    const match = key?.match(GAME_KEY);
    if (!match) continue;
    const value = storage.getItem(key);
    if (match[1] === "token") {
      if (value) found.push([match[2], { token: value, label: null }]);
      continue;
    }
    try {
      for (const s of JSON.parse(value ?? "[]")) if (s?.token) found.push([match[2], s]);
    } catch {
      /* not ours */
    }
  }
  return found;
}

export function heldGames() {
  const games = new Map();
  for (const [gameId, seat] of [...entries(sessionStorage), ...entries(localStorage)]) {
    const tokens = games.get(gameId) ?? [];
    const same = tokens.find((t) => t.token === seat.token);
    if (!same) tokens.push({ ...seat });
    else if (!same.label) same.label = seat.label;
    games.set(gameId, tokens);
  }
  return [...games].map(([gameId, tokens]) => ({ gameId, tokens }));
}

// Forget a token the server refused (or every token of a game that is gone), in both storages.
export function forgetHeld(gameId, token) {
  for (const storage of [sessionStorage, localStorage]) {
    if (token === undefined || storage.getItem(tabKey(gameId)) === token)
      storage.removeItem(tabKey(gameId));
    let kept = [];
    try {
      kept = JSON.parse(storage.getItem(deviceKey(gameId)) ?? "[]");
    } catch {
      kept = [];
    }
    const left = token === undefined ? [] : kept.filter((s) => s.token !== token);
    if (left.length) storage.setItem(deviceKey(gameId), JSON.stringify(left));
    else storage.removeItem(deviceKey(gameId));
  }
}
