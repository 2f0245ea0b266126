"""The peer of bench/load.py and bench/live.py, boardgame.io 0.50 on Node (bench/peers), plays
the bench's elections: the harness works, so the peer's figures cannot rot.

Skipped without node, and without bench/peers/node_modules where it cannot be installed: in
CI (CI=true) the tests never run npm; elsewhere the harness is installed by `npm ci` the
first time (skipped when that fails, e.g. without network)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from devtools.servers import ROOT
from tests.scale.benches import run_bench

BENCH = ROOT / "bench"


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The bench's peer modules, importable (bench/ on sys.path), with the harness there."""
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH")
    sys.path.insert(0, str(BENCH))
    try:
        import bgio
        import bgio_server

        reason = bgio_server.harness()
        if reason is not None:
            pytest.skip(reason)
        yield bgio
    finally:
        sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def peer_url(bench: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import bgio_server

    folder: Path = tmp_path_factory.mktemp("peer")
    with bgio_server.peer_server(folder) as (url, _):
        yield url


def test_a_peer_election_is_ten_moves_and_a_ballot_reaches_only_its_voter(
    bench: ModuleType, peer_url: str
) -> None:
    from live_peers import close_all, connect_all

    # given a match with its six seats and one spectator connected
    table = bench.BgioTable(bench.start_match(peer_url), 1)
    try:
        connect_all(peer_url, table.auths())
        # when Stark's seat has placed its ballot (six candidacy moves, then the first voter)
        timings = [table.command() for _ in range(7)]
        # then each move was pushed to all seven sockets, the ballot to its voter only
        assert all(0 < ack <= push for ack, push in timings)
        assert table.observer.state["G"]["step"] == "ballot"
        assert table.observer.state["G"]["players"]["0"]["markers"][0]["kind"] == "for"
        assert set(table.seats[4].state["G"]["players"]) == {"4"}
        assert table.seats[4].state["G"]["players"]["4"]["markers"] == []
        assert table.spectators[0].state["G"]["players"] == {}
        assert "secret" not in table.spectators[0].state["G"]
        # and the election ends after the other two voters and the winner's refusal
        assert len(table.play_election()) == 3
        assert table.observer.state["G"]["election"] == 2
        assert len(table.play_election()) == 10
    finally:
        close_all(table.peers)


def test_seats_on_the_bench_loop_play_an_election_and_a_ballot_reaches_only_its_voter(
    bench: ModuleType, peer_url: str
) -> None:
    import bgio_loop
    from loop_peers import Loop, close_peers, open_all

    loop = Loop()
    # given a match whose six seats and two spectators are WebSockets on the bench's loop,
    # each synced
    table = bgio_loop.LoopBgioTable(loop, bench.start_match(peer_url))
    try:
        loop.run(open_all(peer.join(peer_url, table.game) for peer in table.peers), 60)
        assert table.room.versions == [0] * 8
        # when Stark's seat has placed its ballot (six candidacy moves, then the first voter)
        acks = [loop.run(table.command(), 60) for _ in range(7)]
        # then every seat and spectator has each move's state, the ballot seen by its voter
        # only
        assert all(ack > 0 for ack in acks)
        assert table.room.versions == [7] * 8
        assert table.observer.state["G"]["step"] == "ballot"
        assert table.observer.state["G"]["players"]["0"]["markers"][0]["kind"] == "for"
        assert set(table.seats[4].state["G"]["players"]) == {"4"}
        assert table.seats[4].state["G"]["players"]["4"]["markers"] == []
        assert all(s.state["G"]["players"] == {} for s in table.spectators)
        # and the election ends after the other two voters and the winner's refusal
        rest: list[float] = []
        loop.run(table.play_election(rest), 60)
        assert len(rest) == 3
        assert table.observer.state["G"]["election"] == 2
        assert table.room.versions == [10] * 8
    finally:
        close_peers(loop, table.peers)
        loop.close()


def test_the_load_bench_peer_part_plays_two_rooms_without_error(bench: ModuleType) -> None:
    lines = run_bench("bench/load.py", "--peer-only", "--rooms", "2")
    assert lines["peer_errors"] == "0"
    assert int(lines["peer_commands"]) == 2 * 10
    assert float(lines["peer_cmds_per_s"]) > 0
    assert float(lines["peer_p99_ms"]) >= float(lines["peer_p50_ms"]) > 0
    assert float(lines["peer_cpu_ms_per_cmd"]) >= 0  # CPU ticks are 10 ms: 20 moves may read 0
