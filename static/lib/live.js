// The live court over Socket.IO (namespace /court, docs/protocol.md). Reconnects by itself and
// catches up from the last version seen, without reloading the page.
import { io } from "/vendor/socket.io.esm.min.js";
import { padded } from "./padding.js";

export function connectCourt({
  gameId,
  token,
  onWelcome,
  onEvents,
  onOwn,
  onPresence,
  onStatus,
  onTalk,
  talkAfter,
  onSeatEnded,
}) {
  let lastVersion = null;
  const socket = io("/court", {
    // Called again before every reconnection, so the server sends exactly what was missed
    // (talk lines too: after the last position the talk panel holds).
    auth: (cb) =>
      cb({
        game: gameId,
        token: token(),
        last_version: lastVersion,
        talk_after: talkAfter ? talkAfter() : 0,
      }),
    transports: ["websocket", "polling"],
    reconnectionDelayMax: 4000,
  });
  const seen = (version) => {
    lastVersion = lastVersion === null ? version : Math.max(lastVersion, version);
  };

  // A connection the page closes itself to connect again (a new token, a view it must be
  // welcomed to anew) is no lost connection: the page says nothing until the welcome.
  let switching = false;
  socket.on("connect", () => {
    switching = false;
    onStatus("connected");
  });
  socket.on("disconnect", () => onStatus(switching ? "switching" : "reconnecting"));
  socket.io.on("reconnect_attempt", () => onStatus("reconnecting"));
  // The server's refusal carries {code, message} as `data`; a network failure (the server
  // stopped, the device offline) carries none, and the client keeps retrying by itself.
  socket.on("connect_error", (error) => {
    if (error.data) onStatus("refused", error.data);
    else onStatus("unreachable", { message: error.message });
  });
  // On a reconnection the records missed follow the welcome as `events`: the version seen
  // moves on with them, not with the welcome.
  socket.on("welcome", (payload) => {
    const first = lastVersion === null;
    if (first) seen(payload.version);
    onWelcome(payload, first);
  });
  // `push`: the whole message when it is a push, which carries the court view's change too.
  const deliver = (records, upto, push = null) => {
    const fresh = records.filter((r) => lastVersion === null || r.version > lastVersion);
    seen(upto);
    if (fresh.length) onEvents(fresh, upto, push);
  };
  // A catch-up longer than a page comes in pages (`more`, `next_after`): the client asks for
  // each next one with `sync`, and holds the records pushed meanwhile until the last page.
  let held = null;
  const catchUp = async (page) => {
    held = [];
    for (;;) {
      deliver(page.records, page.more ? page.next_after : page.version);
      if (!page.more) break;
      page = await nextPage(page.next_after);
      if (page === null) {
        // The page was refused or the connection lost: a new connection catches up from the
        // last page received, and the pushes held here come again with it.
        held = null;
        if (socket.connected) api.reconnect();
        return;
      }
    }
    const pushed = held;
    held = null;
    for (const [name, payload] of pushed)
      if (name === "own") onOwn(payload);
      else deliver(payload.records, payload.version, payload);
  };
  // The page after `after`; asked again a second later when messages come too fast.
  const nextPage = async (after) => {
    for (;;) {
      try {
        return await api.send("sync", { last_version: after });
      } catch (error) {
        if (error.code !== "rate_limited") return null;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  socket.on("events", (payload) => {
    if (held) held.push(["events", payload]);
    else if (payload.more) catchUp(payload);
    else deliver(payload.records, payload.version, payload);
  });
  // The part of a push for this connection's audience alone, right after the push: held with
  // the pushes while a catch-up comes in, so that it always follows its own.
  socket.on("own", (payload) => {
    if (held) held.push(["own", payload]);
    else onOwn(payload);
  });
  socket.on("presence", (payload) => onPresence(payload));
  if (onTalk) socket.on("talk", (payload) => onTalk(payload));
  socket.on("seat_ended", (payload) => onSeatEnded?.(payload));

  const api = {
    get lastVersion() {
      return lastVersion;
    },
    // Sends one message (a sealed choice padded to its width); resolves with the ack,
    // rejects with {code, message} when refused.
    send(message, payload = {}) {
      return new Promise((resolve, reject) => {
        if (!socket.connected) {
          reject(
            Object.assign(
              new Error("Not connected to the server; retrying. Try again in a moment."),
              { code: "offline" },
            ),
          );
          return;
        }
        socket.timeout(15000).emit(message, padded(message, payload), (timeout, ack) => {
          if (timeout)
            reject(
              Object.assign(new Error("The server did not answer in time."), { code: "timeout" }),
            );
          else if (ack?.ok) resolve(ack);
          else
            reject(
              Object.assign(new Error(ack?.message ?? "Refused."), {
                code: ack?.code,
                fields: ack?.fields,
              }),
            );
        });
      });
    },
    // Every record after `after` up to now, asked page by page with `sync`.
    async recordsAfter(after) {
      const records = [];
      for (;;) {
        const ack = await api.send("sync", { last_version: after });
        records.push(...ack.records);
        if (!ack.more) return records;
        after = ack.next_after;
      }
    },
    reconnect() {
      switching = true;
      socket.disconnect();
      socket.connect();
    },
    socket,
  };
  return api;
}
