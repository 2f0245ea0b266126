'use strict';
/*
 * The peer server of bench/live.py and bench/load.py: boardgame.io 0.50 on Node, one process,
 * its Koa server with the socket.io transport and in-memory storage, serving one game,
 * "warden", that mirrors the court bench's Warden election.
 *
 * Six players. An election has the same ten moves as the court bench's:
 * - candidacy: every seat in turn either `stand`s a Lord (`lord-<seat>`) or `pass`es;
 * - ballot: every seat with votes (seat 0: 3 votes, seats 1 and 4: 1 vote, as the North
 *   villages give Stark, Lannister and Tyrell in the court bench) in turn either `pass`es or
 *   `placeBallot`s markers ({kind: for|against|decoy, candidate}); the markers are secret:
 *   kept in `G.secret` (sent to nobody) and in `G.players[seat]` (sent to that seat only,
 *   PlayerView.STRIP_SECRETS), so the server renders each update per player;
 * - reveal: after the last voter the ballots are shown with the count (FOR adds the voter's
 *   votes, AGAINST takes them off, DECOY counts nothing) and the winner `refuseTitle`s,
 *   which opens the next election.
 *
 * Run: `HOST=127.0.0.1 PORT=8000 node bench/peers/server.js` (or the port as first argument).
 * GET /healthz answers {"status": "ok"}; the lobby API is boardgame.io's own.
 */

const { Server } = require('boardgame.io/server');
const { INVALID_MOVE, PlayerView } = require('boardgame.io/core');

const PLAYERS = 6;
const WEIGHTS = { 0: 3, 1: 1, 4: 1 }; // seat -> votes
const KINDS = new Set(['for', 'against', 'decoy']);
const MAX_MARKERS = 4;

function openElection(number) {
  const players = {};
  for (let seat = 0; seat < PLAYERS; seat += 1) players[seat] = { markers: [] };
  return {
    election: number,
    step: 'candidacy',
    order: [...Array(PLAYERS).keys()],
    cursor: 0,
    standing: [], // [{noble, seat}]
    players,
    secret: { ballots: {} },
    revealed: null,
  };
}

function reveal(G) {
  const tally = {};
  for (const { noble } of G.standing) tally[noble] = 0;
  for (const [seat, markers] of Object.entries(G.secret.ballots)) {
    for (const { kind, candidate } of markers) {
      if (kind === 'for') tally[candidate] += WEIGHTS[seat];
      if (kind === 'against') tally[candidate] -= WEIGHTS[seat];
    }
  }
  const winner = G.standing.reduce((best, c) => (tally[c.noble] > tally[best.noble] ? c : best));
  G.revealed = { ballots: G.secret.ballots, tally, winner: winner.noble };
  G.secret.ballots = {};
  G.step = 'refuse';
  G.order = [winner.seat];
  G.cursor = 0;
}

// Either changes G in place and answers undefined, or answers a new G without touching it
// (immer takes one or the other): the new election when nobody stood.
function advance(G) {
  if (G.cursor + 1 < G.order.length) {
    G.cursor += 1;
  } else if (G.step === 'ballot') {
    reveal(G);
  } else if (G.standing.length === 0) {
    return openElection(G.election + 1);
  } else {
    G.step = 'ballot';
    G.order = Object.keys(WEIGHTS).map(Number);
    G.cursor = 0;
  }
  return undefined;
}

function validMarkers(G, markers) {
  if (!Array.isArray(markers) || markers.length === 0 || markers.length > MAX_MARKERS) {
    return false;
  }
  const standing = new Set(G.standing.map((c) => c.noble));
  return markers.every((m) => m && KINDS.has(m.kind) && standing.has(m.candidate));
}

const Warden = {
  name: 'warden',
  minPlayers: PLAYERS,
  maxPlayers: PLAYERS,
  setup: () => openElection(1),
  playerView: PlayerView.STRIP_SECRETS,
  turn: {
    minMoves: 1,
    maxMoves: 1,
    order: {
      first: ({ G }) => G.order[G.cursor],
      next: ({ G }) => G.order[G.cursor],
    },
  },
  moves: {
    stand: ({ G, playerID }, noble) => {
      if (G.step !== 'candidacy' || noble !== `lord-${playerID}`) return INVALID_MOVE;
      G.standing.push({ noble, seat: Number(playerID) });
      return advance(G);
    },
    pass: ({ G }) => {
      if (G.step !== 'candidacy' && G.step !== 'ballot') return INVALID_MOVE;
      return advance(G);
    },
    placeBallot: ({ G, playerID }, markers) => {
      if (G.step !== 'ballot' || !validMarkers(G, markers)) return INVALID_MOVE;
      const kept = markers.map(({ kind, candidate }) => ({ kind, candidate }));
      G.players[playerID].markers = kept;
      G.secret.ballots[playerID] = kept;
      return advance(G);
    },
    refuseTitle: ({ G }) => {
      if (G.step !== 'refuse') return INVALID_MOVE;
      return openElection(G.election + 1);
    },
  },
};

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.argv[2] || process.env.PORT || 8000);
const server = Server({ games: [Warden], origins: [] });
server.router.get('/healthz', (ctx) => {
  ctx.body = { status: 'ok' };
});
// koa-socket-2 makes app.listen(port, callback) call the http server's listen: give it the host
const listen = server.app.listen;
server.app.listen = (listenPort, callback) => listen(listenPort, host, callback);
server.run(port, () => console.log(`boardgame.io peer is listening on http://${host}:${port}`));
