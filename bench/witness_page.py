"""Bench of a page's own check of a long log (static/lib/witness.js) in headless Chromium.

Run from the repo root: `.venv/bin/python bench/witness_page.py [--events 100000]`. It builds a
started game of that many events (bench/store_log.py), serves it on loopback, opens its court
page as a spectator on a device that never saw it, and waits until the witness has recomputed
every hash from version 1 in the background (/chain pages, hashed in a worker) and holds them
all. Prints `name: value` lines:
- witness_events: the records checked; witness_check_s: from the page's opening to the last
  hash held; witness_records_per_s;
- witness_longest_task_ms: the longest task the page's own thread ran meanwhile (the Long Tasks
  API: tasks over 50 ms), witness_blocking_ms: their time over 50 ms added up (the "total
  blocking time"): the page answers its player as long as both stay small;
- witness_chain_pages: the /chain pages read.
Exits 1 with `FAILED: <name>` when the check took longer than CHECK_S_TARGET or a task held the
page's thread longer than TASK_MS_TARGET. Files live in a temporary directory removed at the end.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import emit, verdict  # repo root on sys.path
from store_log import build

from tests.browser.conftest import ARGS, CHROMIUM
from tests.live_server import LiveServer

CHECK_S_TARGET = 120.0
TASK_MS_TARGET = 200.0
# Collects the page's long tasks from its first script on.
LONG_TASKS = """
window.longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });
"""
# How many versions the page holds the hashes of (static/lib/witness_store.js).
HELD = """async (id) => await new Promise((resolve) => {
  const req = indexedDB.open("small-council-witness", 1);
  req.onupgradeneeded = () => req.result.createObjectStore("chains");
  req.onsuccess = () => {
    const get = req.result.transaction("chains").objectStore("chains").get(id);
    get.onsuccess = () => resolve(get.result ?? 0);
  };
})"""


def measure(url: str, game_id: str, events: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_context().new_page()
        page.add_init_script(LONG_TASKS)
        pages: list[str] = []
        page.on("request", lambda r: pages.append(r.url) if "/chain?" in r.url else None)
        started = time.monotonic()
        page.goto(f"{url}/games/{game_id}")
        deadline = started + CHECK_S_TARGET * 5
        while page.evaluate(HELD, game_id) < events:
            if time.monotonic() > deadline:
                raise RuntimeError("the page did not check the whole log in time")
            time.sleep(0.1)
        took = time.monotonic() - started
        tasks: list[float] = page.evaluate("window.longTasks")
        shown = page.locator("#witness").is_visible()
        browser.close()
    if shown:
        raise RuntimeError("the page raised its banner over a log that was not changed")
    return {
        "check_s": took,
        "longest_task_ms": max(tasks, default=0.0),
        "blocking_ms": sum(t - 50 for t in tasks),
        "chain_pages": len(pages),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    events = parser.parse_args().events
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "witness.db"
        game_id = build(f"sqlite:///{db}", events)
        with LiveServer(db, deadlines=False) as server:
            found: dict[str, Any] = measure(server.url, game_id, events)
    emit("witness_events", events)
    emit("witness_check_s", found["check_s"], 2)
    emit("witness_records_per_s", events / found["check_s"], 0)
    emit("witness_longest_task_ms", found["longest_task_ms"], 1)
    emit("witness_blocking_ms", found["blocking_ms"], 1)
    emit("witness_chain_pages", found["chain_pages"])
    return verdict(
        {
            "witness_check_s": found["check_s"] <= CHECK_S_TARGET,
            "witness_longest_task_ms": found["longest_task_ms"] <= TASK_MS_TARGET,
        }
    )


if __name__ == "__main__":
    sys.exit(main())
