"""Shared helpers of the bench scripts: the repo root on sys.path, timing, `name: value` lines.

Import this module first in a bench script: it puts the repo root on sys.path
so that the script can import `court` and `config` when run as
`.venv/bin/python bench/<script>.py` from anywhere.
"""

from __future__ import annotations

import json
import math
import os
import platform
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def emit(name: str, value: float | str, digits: int = 0) -> None:
    """Print one `name: value` line at once; numbers are rounded to `digits` decimals."""
    if isinstance(value, str):
        text = value
    elif digits == 0:
        text = str(round(value))
    else:
        text = f"{value:.{digits}f}"
    print(f"{name}: {text}", flush=True)


def per_second(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def timed(action: Callable[[], object]) -> float:
    """Seconds one call of `action` takes."""
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def median_ms(action: Callable[[], object], calls: int) -> float:
    """Median milliseconds of `calls` calls of `action`."""
    return statistics.median(timed(action) for _ in range(calls)) * 1000


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown cpu"


def machine_line() -> str:
    return (
        f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}"
    )


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of `values`: `fraction` 0.99 gives the p99."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def decode_rows(rows: Iterable[Sequence[Any]]) -> int:
    """The floor of a replay: JSON-decode each stored row's data and private columns (7 and
    8, as the store selects them); the number of rows."""
    loads = json.loads
    count = 0
    for row in rows:
        loads(row[7])
        if row[8] is not None:
            loads(row[8])
        count += 1
    return count


def verdict(met: dict[str, bool]) -> int:
    """Print `FAILED: <name>` for every target missed; the exit status: 1 when any was."""
    failed = [name for name, ok in met.items() if not ok]
    for name in failed:
        print(f"FAILED: {name}", flush=True)
    return 1 if failed else 0


def cpu_seconds(pids: Iterable[int]) -> float:
    """CPU seconds (user + system, every thread) the processes `pids` and their living
    descendants have used so far, from /proc/PID/stat (Linux); a process that is gone
    counts 0. A server that forks workers (a master and its workers) is counted whole."""
    stats = _proc_stats()
    total = sum(stats[pid][1] for pid in _with_descendants(pids, stats))
    return total / os.sysconf("SC_CLK_TCK")


def descendants(pids: Iterable[int]) -> list[int]:
    """The living processes `pids` and their descendants (a master and its workers)."""
    return _with_descendants(pids, _proc_stats())


def _with_descendants(pids: Iterable[int], stats: dict[int, tuple[int, int]]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        if pid in found or pid not in stats:
            continue
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def _proc_stats() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, utime + stime in clock ticks) of every process."""
    stats: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        # Fields after the command name, which is in parentheses and may hold spaces.
        rest = text[text.rindex(")") + 2 :].split()
        stats[int(entry.name)] = (int(rest[1]), int(rest[11]) + int(rest[12]))
    return stats


def cores() -> int:
    """The cores this process (and the servers it starts) may run on."""
    return len(os.sched_getaffinity(0))
