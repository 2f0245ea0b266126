"""The floor of bench/load.py: the same rooms, peers and pacing against bench/floor_app.py, a
bare Flask-SocketIO server whose `bump` only counts, pushes the count to the room and acks.
What it costs per command is what the transport costs; the court cannot go below it on the
same server stack.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from common import ROOT, cpu_seconds
from live_court import PAGES
from live_peers import STOP_SECONDS, _wait_healthy, free_port
from loop_peers import Loop, LoopPeer, LoopRoom, close_peers, open_all
from placement import pinned

from devtools.servers import stop_process


@dataclass
class FloorRun:
    acks: list[float] = field(default_factory=list)  # seconds from emit to ack
    wall: float = 0.0
    cpu: float = 0.0  # CPU seconds of the floor's process during the timed window
    client_cpu: float = 0.0  # CPU seconds of the bench's process in the same window


@contextmanager
def floor_server(log: Path, cpus: str | None = None) -> Iterator[tuple[str, int]]:
    """bench/floor_app.py on 127.0.0.1 and a free port, on the cores `cpus` names (None:
    any): (base URL, pid)."""
    port = free_port()
    env = {"HOST": "127.0.0.1", "PORT": str(port)}
    with open(log, "wb") as out:
        process = subprocess.Popen(
            pinned([sys.executable, "bench/floor_app.py"], cpus),
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(process, url, log)
            yield url, process.pid
        finally:
            stop_process(process, STOP_SECONDS)


def measure_floor(folder: Path, rooms: int, bumps: int, cpus: str | None = None) -> FloorRun:
    """`rooms` rooms of eight peers (as many as the court's rooms have pages), each room
    sending `bumps` bumps one after another (its peers in turn, each waiting until the eight
    have the push), all rooms at once; the floor's process on the cores `cpus` names."""
    run = FloorRun()
    loop = Loop()
    peers = [[LoopPeer(loop, LoopRoom(PAGES), 0)] for _ in range(rooms)]
    for room in peers:
        room += [LoopPeer(loop, room[0].room, i) for i in range(1, PAGES)]
    everyone = [peer for room in peers for peer in room]
    try:
        with floor_server(folder / "floor.log", cpus) as (url, pid):
            loop.run(_connect(url, peers))
            before, client_before = cpu_seconds([pid]), time.process_time()
            start = time.perf_counter()
            loop.run(_bump_all(peers, bumps, run.acks))
            run.wall = time.perf_counter() - start
            run.cpu = cpu_seconds([pid]) - before
            run.client_cpu = time.process_time() - client_before
            close_peers(loop, everyone)
    finally:
        loop.close()
    return run


async def _connect(url: str, peers: list[list[LoopPeer]]) -> None:
    await open_all(p.open(url, {"game": f"r{i}"}) for i, room in enumerate(peers) for p in room)


async def _bump_all(peers: list[list[LoopPeer]], bumps: int, acks: list[float]) -> None:
    async def room(members: list[LoopPeer]) -> None:
        shared = members[0].room
        assert isinstance(shared, LoopRoom)
        for i in range(bumps):
            peer = members[i % PAGES]
            await peer.pace()
            start = time.perf_counter()
            ack = await peer.call("bump", {})
            acks.append(time.perf_counter() - start)
            await shared.reach(int(ack["version"]))

    await asyncio.gather(*(room(members) for members in peers))
