// The live court over Socket.IO (namespace /court, docs/protocol.md). Reconnects by itself and
// catches up from the last version seen, without reloading the page.
import { io } from "/vendor/socket.io.esm.min.js";
import { padded } from "./padding.js";

export function connectCourt({ gameId, token, onWelcome, onEvents, onPresence, onStatus }) {
  let lastVersion = null;
  const socket = io("/court", {
    // Called again before every reconnection, so the server sends exactly what was missed.
    auth: (cb) => cb({ game: gameId, token: token(), last_version: lastVersion }),
    transports: ["websocket", "polling"],
    reconnectionDelayMax: 4000,
  });
  const seen = (version) => { lastVersion = lastVersion === null ? version : Math.max(lastVersion, version); };

  socket.on("connect", () => onStatus("connected"));
  socket.on("disconnect", () => onStatus("reconnecting"));
  socket.io.on("reconnect_attempt", () => onStatus("reconnecting"));
  socket.on("connect_error", (error) => onStatus("refused", error.data ?? { message: error.message }));
  // On a reconnection the records missed follow the welcome as `events`: the version seen
  // moves on with them, not with the welcome.
  socket.on("welcome", (payload) => {
    const first = lastVersion === null;
    if (first) seen(payload.version);
    onWelcome(payload, first);
  });
  socket.on("events", (payload) => {
    const fresh = payload.records.filter((r) => lastVersion === null || r.version > lastVersion);
    seen(payload.version);
    if (fresh.length) onEvents(fresh, payload.version);
  });
  socket.on("presence", (payload) => onPresence(payload));

  return {
    get lastVersion() { return lastVersion; },
    // Sends one message (a sealed choice padded to its width); resolves with the ack,
    // rejects with {code, message} when refused.
    send(message, payload = {}) {
      return new Promise((resolve, reject) => {
        if (!socket.connected) {
          reject(Object.assign(new Error("Not connected to the server; retrying. Try again in a moment."), { code: "offline" }));
          return;
        }
        socket.timeout(15000).emit(message, padded(message, payload), (timeout, ack) => {
          if (timeout) reject(Object.assign(new Error("The server did not answer in time."), { code: "timeout" }));
          else if (ack && ack.ok) resolve(ack);
          else reject(Object.assign(new Error(ack?.message ?? "Refused."), { code: ack?.code, fields: ack?.fields }));
        });
      });
    },
    reconnect() { socket.disconnect(); socket.connect(); },
    socket,
  };
}
