"""boardgame.io's rooms of bench/load.py on the bench's asyncio loop (bench/loop_peers.py),
as the court's rooms are played there: every seat and each of a room's two spectators (as
many as the court's rooms have) one WebSocket to the namespace `/warden`, all of them on one
loop, so that the clients cost the peer's run as little as the court's.

The match, its seats and the election are bench/bgio.py's: a seat connects (`40/warden,{}`),
emits `sync` (matchID, playerID, credentials, numPlayers) and is answered `sync` (matchID,
{state, ...}); it takes the state of every `update` (matchID, state, deltalog) it is sent
and reports its `_stateID` to its LoopRoom; a spectator syncs without a playerID and is sent
the state as nobody's (the seats' secrets stripped). A move emits `update` (action, stateID,
matchID, playerID) and is timed from its emit until its mover has the new stateID; the room's
next move waits until its six seats and two spectators have it.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bgio import (
    NAMESPACE,
    SETUP_WORKERS,
    SYNC_SECONDS,
    Match,
    PeerRun,
    Seat,
    next_move,
    start_match,
    still_open,
)
from common import cpu_seconds
from live_court import PLAYERS, SPECTATORS
from loop_peers import Loop, LoopPeer, LoopRoom, close_peers, in_every_room, open_all


class LoopBgioPeer(Seat, LoopPeer):
    """One seat of a match on the loop, or a spectator (`seat` None) at `index`."""

    def __init__(self, loop: Loop, room: LoopRoom, index: int, seat: int | None) -> None:
        super().__init__(loop, room, index, namespace=NAMESPACE)
        self.seat = seat
        self.state = {}
        self._synced: asyncio.Future[None] | None = None

    async def join(self, url: str, match: Match) -> None:
        """Connect, then sync with `match` until its state is here."""
        self._synced = asyncio.get_running_loop().create_future()
        await self.open(url, {})
        self.emit("sync", *self.sync_args(match))
        try:
            await asyncio.wait_for(self._synced, SYNC_SECONDS)
        except TimeoutError:
            raise RuntimeError(f"no sync of match {match.id} in {SYNC_SECONDS:.0f} s") from None

    def move(self, match: Match, state_id: int, name: str, args: list[Any]) -> None:
        self.emit("update", *self.move_args(match, state_id, name, args))

    def _on(self, name: str, args: list[Any]) -> None:
        if name == "update":
            self._take(args[1])
        elif name == "sync":
            self._take(args[1]["state"])
            if self._synced is not None and not self._synced.done():
                self._synced.set_result(None)

    def _fail(self, error: Exception) -> None:
        super()._fail(error)
        if self._synced is not None and not self._synced.done():
            self._synced.set_exception(error)


class LoopBgioTable:
    """One match's six seats and two spectators on the loop and the elections they play."""

    def __init__(self, loop: Loop, match: Match) -> None:
        self.game = match
        self.room = LoopRoom(PLAYERS + SPECTATORS)
        self.seats = [LoopBgioPeer(loop, self.room, seat, seat) for seat in range(PLAYERS)]
        self.spectators = [
            LoopBgioPeer(loop, self.room, PLAYERS + i, None) for i in range(SPECTATORS)
        ]
        self.observer = self.seats[0]

    @property
    def peers(self) -> list[LoopBgioPeer]:
        return [*self.seats, *self.spectators]

    async def command(self) -> float:
        """One move: seconds from its emit until its mover has the new state; returns once
        every seat and spectator has it."""
        seat, state_id, name, args = next_move(self.observer.state)
        peer = self.seats[seat]
        await peer.pace()
        start = time.perf_counter()
        peer.move(self.game, state_id, name, args)
        await self.room.reach(state_id + 1)
        return self.room.reached[peer.index] - start

    async def play_election(self, acks: list[float]) -> None:
        """Play the open election to its end, each move's seconds to `acks`."""
        election = self.observer.state["G"]["election"]
        moves = 0
        while still_open(self.observer.state, election, moves):
            acks.append(await self.command())
            moves += 1


def bgio_load(url: str, pid: int, rooms: int, elections: int) -> PeerRun:
    """`rooms` matches of six seats and two spectators each play `elections` elections at once
    on the loop; every move is timed to its mover's update, and the next move of a room waits
    until its eight sockets have it. Set-up (lobby, connections, syncs) is not timed; the CPU
    of server process `pid` and of this process are read around the timed window."""
    run = PeerRun()
    with ThreadPoolExecutor(SETUP_WORKERS) as pool:
        matches = list(pool.map(start_match, [url] * rooms))
    loop = Loop()
    tables = [LoopBgioTable(loop, match) for match in matches]
    try:
        loop.run(open_all(peer.join(url, t.game) for t in tables for peer in t.peers))

        async def play(table: LoopBgioTable) -> None:
            for _ in range(elections):
                await table.play_election(run.acks)

        plays = [(f"match {table.game.id}", play(table)) for table in tables]
        before, client_before = cpu_seconds([pid]), time.process_time()
        run.wall = in_every_room(loop, plays, run.errors)
        run.cpu = cpu_seconds([pid]) - before
        run.client_cpu = time.process_time() - client_before
        return run
    finally:
        close_peers(loop, [peer for table in tables for peer in table.peers])
        loop.close()
