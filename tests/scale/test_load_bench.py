"""bench/load.py, run small (two rooms), prints every figure it promises and no error, so the
bench cannot rot between `make bench` runs: the court on its default deployment (SQLite, no
Redis), then one and two processes on PostgreSQL and Redis, the floor and the peer."""

from __future__ import annotations

import shutil

from tests.scale.benches import run_bench
from tests.services import postgres_bin, unavailable

FIGURES = (
    "cores",
    "placement",
    "one_proc_cmds_per_s",
    "one_proc_p99_ms",
    "one_proc_cpu_ms_per_cmd",
    "one_proc_client_cpu_ms_per_cmd",
    "pg_one_proc_cmds_per_s",
    "pg_one_proc_p99_ms",
    "pg_one_proc_cpu_ms_per_cmd",
    "two_proc_cmds_per_s",
    "two_proc_p99_ms",
    "two_proc_cpu_ms_per_cmd",
    "floor_cmds_per_s",
    "floor_p99_ms",
    "floor_cpu_ms_per_cmd",
    "scale_ratio",
    "one_proc_rss_mb_per_room",
    "pg_one_proc_rss_mb_per_room",
    "one_proc_bytes_per_push",
    "one_proc_page_cpu_ms_per_cmd",
    "two_proc_bytes_per_push",
    "two_proc_page_cpu_ms_per_cmd",
    "errors",
    "load",
)


def test_the_load_bench_plays_two_rooms_on_each_deployment_without_error() -> None:
    if postgres_bin() is None or shutil.which("redis-server") is None:
        unavailable("bench/load.py needs PostgreSQL and redis-server")
    lines = run_bench("bench/load.py", "--rooms", "2")
    assert set(FIGURES) <= set(lines), lines
    assert lines["errors"] == "0"
    # two rooms, each a whole election: six candidacy turns, the ballot turns, a refusal
    assert int(lines["one_proc_commands"]) == int(lines["two_proc_commands"]) >= 2 * 8
    assert int(lines["pg_one_proc_commands"]) == int(lines["one_proc_commands"])
    assert float(lines["one_proc_cmds_per_s"]) > 0 and float(lines["two_proc_cmds_per_s"]) > 0
    assert float(lines["scale_ratio"]) > 0
    # the floor plays as many commands per room as the court did
    assert int(lines["floor_commands"]) >= 2 * 8
    cpu = ("one_proc_cpu_ms_per_cmd", "two_proc_cpu_ms_per_cmd", "floor_cpu_ms_per_cmd")
    assert all(float(lines[name]) >= 0 for name in cpu)
    assert "PostgreSQL" in lines["machine"] and "Redis" in lines["machine"]
    # every page kept its court view from the pushes alone, and the pushes carried it
    assert lines["one_proc_stale_views"] == lines["two_proc_stale_views"] == "0"
    assert lines["pg_one_proc_stale_views"] == "0"
    # the servers on one core, the clients on the other
    assert lines["placement"] == "servers on cores 0, clients on cores 1" or lines["cores"] == "1"
    assert 0 < float(lines["one_proc_bytes_per_push"]) < 20_000


def test_with_two_elections_every_room_plays_both_and_only_their_commands_are_timed() -> None:
    if postgres_bin() is None or shutil.which("redis-server") is None:
        unavailable("bench/load.py needs PostgreSQL and redis-server")
    lines = run_bench(
        "bench/load.py",
        "--rooms",
        "2",
        "--elections",
        "2",
        "--runs",
        "one_proc",
        "--no-floor",
        "--no-peer",
    )
    assert lines["errors"] == "0"
    assert int(lines["one_proc_commands"]) >= 2 * 2 * 8
    assert "two_proc_commands" not in lines and "floor_commands" not in lines
    assert "PostgreSQL" not in lines["machine"]  # the default deployment needs neither


def test_unkeyed_pages_play_unsigned_and_their_pushes_carry_no_signed_move() -> None:
    """With `--unkeyed` the seats' pages register no key and sign nothing, as an API client
    plays: every command is taken, and a push carries no `MoveSigned` record, so it is the
    length of an unsigned move's (under the 2,048 bytes a signed one goes past)."""
    lines = run_bench(
        "bench/load.py",
        "--rooms",
        "2",
        "--runs",
        "one_proc",
        "--no-floor",
        "--no-peer",
        "--unkeyed",
    )
    assert lines["errors"] == "0" and lines["one_proc_stale_views"] == "0"
    assert float(lines["one_proc_bytes_per_push"]) < 2048
