// Small fetch wrapper (JSON in, JSON out; errors carry the server's code and sentence) and the
// seat tokens. A token lives in this tab's sessionStorage, so each window can hold its own seat;
// the tokens this device was given are also kept per game in localStorage so a closed tab can
// resume its seat. Tokens never go into a URL the server sees: the game master's link carries
// his token in the fragment (#token=...), which browsers do not send, and the page drops it at once.
export async function call(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw Object.assign(new Error("The server cannot be reached; check your connection."), { code: "offline" });
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw Object.assign(new Error(data.message ?? `The server answered ${response.status}.`),
      { code: data.code ?? "http_error", status: response.status, fields: data.fields });
  }
  return data;
}

const tabKey = (gameId) => `token:${gameId}`;
const deviceKey = (gameId) => `seats:${gameId}`;

export function tokenFor(gameId) { return sessionStorage.getItem(tabKey(gameId)); }

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

export function remembered(gameId, token) { return keptSeats(gameId).some((s) => s.token === token); }

export function forgetToken(gameId) { sessionStorage.removeItem(tabKey(gameId)); }

// This tab's token, forgotten by the tab and by the device.
export function forgetSeat(gameId) {
  const token = tokenFor(gameId);
  forgetToken(gameId);
  if (token) dropKept(gameId, token);
}

// [{token, label}] this device was asked to remember for the game (label: "Eddard, House Stark").
export function keptSeats(gameId) {
  try { return JSON.parse(localStorage.getItem(deviceKey(gameId)) ?? "[]"); } catch { return []; }
}

export function dropKept(gameId, token) {
  localStorage.setItem(deviceKey(gameId), JSON.stringify(keptSeats(gameId).filter((s) => s.token !== token)));
}

// A link that opens a seat (or the game master's role) on another device: the token rides in
// the fragment, which the browser never sends to the server.
export function tokenLink(gameId, token) {
  return `${window.location.origin}/games/${gameId}#token=${encodeURIComponent(token)}`;
}

// The game master's token, kept on the host's device so the host can hand over the link.
const masterKey = (gameId) => `master:${gameId}`;
export function keepMasterToken(gameId, token) { localStorage.setItem(masterKey(gameId), token); }
export function masterLink(gameId) {
  const token = localStorage.getItem(masterKey(gameId));
  return token ? tokenLink(gameId, token) : null;
}

// A link opened with #token=... (a seat link, the game master's): keep the token for this tab
// and game, and take it out of the address bar and the browser history.
export function adoptLinkToken(gameId) {
  const match = window.location.hash.match(/^#token=([^&]+)$/);
  if (!match) return;
  saveToken(gameId, decodeURIComponent(match[1]), "from a link");
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
}
