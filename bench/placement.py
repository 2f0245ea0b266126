"""Where the benches' processes run: every server process (the court's, the floor, the peer)
and the databases on one core, the bench's own clients on another (`taskset`, Linux's CPU
affinity), so that the CPU each spends is its own and one cannot slow the other down."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass


def pinned(argv: Sequence[str], cpus: str | None) -> list[str]:
    """`argv` run on the cores `cpus` names (a `taskset -c` list: "0", "0-1", "2,3"); as it
    is when `cpus` is None."""
    return ["taskset", "-c", cpus, *argv] if cpus else list(argv)


def core_set(cpus: str) -> set[int]:
    """The cores of a `taskset -c` list."""
    found: set[int] = set()
    for part in cpus.split(","):
        first, _, last = part.partition("-")
        found.update(range(int(first), int(last or first) + 1))
    return found


@contextmanager
def running_on(cpus: str | None) -> Iterator[None]:
    """The calling thread (and every process or thread it starts meanwhile, which inherit
    it) on the cores `cpus` names while the block runs; nothing changes when it is None."""
    if cpus is None:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, core_set(cpus))
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


@dataclass(frozen=True)
class Placement:
    """Where the processes run (`taskset -c` lists; None: anywhere): every server process
    (`servers[i]` the court's i-th, `servers[0]` the floor and the peer), PostgreSQL and
    Redis on the servers' cores, the bench's clients on their own, so that neither takes CPU
    from the other."""

    servers: tuple[str, ...] = ()
    clients: str | None = None

    @classmethod
    def of(cls, cpus: Sequence[str], clients: str | None) -> Placement:
        """`--cpus` and `--client-cpus` as given; by default the first core the bench may
        use for every server and the second for the clients (nothing pinned on one core)."""
        usable = sorted(os.sched_getaffinity(0))
        if len(usable) < 2:
            return cls(tuple(cpus), clients)
        return cls(tuple(cpus) or (str(usable[0]),), clients or str(usable[1]))

    def server(self, index: int) -> str | None:
        """The cores of the index-th server process (the first's when fewer are named)."""
        if not self.servers:
            return None
        return self.servers[index] if index < len(self.servers) else self.servers[0]

    def line(self) -> str:
        servers = ", ".join(self.servers) or "any"
        return f"servers on cores {servers}, clients on cores {self.clients or 'any'}"
