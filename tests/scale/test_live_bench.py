"""The table of bench/live.py (bench/live_court.py) against a real court server (SQLite,
deadlines off): one room plays a Warden election, then whatever the server's phases wait for
(R-4.1: the server runs phases 1, 3, 4 and 8, each ending when its last step is done), then
the next round's Warden election, so the bench's single room cannot rot between runs."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from devtools.servers import ROOT, CourtServer

BENCH = ROOT / "bench"
SPECTATORS = 1
# six candidacy turns, a ballot turn for each of the North's three voting Houses,
# and the winner's refusal
ELECTION_COMMANDS = 10


@pytest.fixture(scope="module")
def live_court() -> Iterator[ModuleType]:
    """bench/live_court.py, importable with its neighbours (bench/ on sys.path)."""
    sys.path.insert(0, str(BENCH))
    try:
        import live_court

        yield live_court
    finally:
        sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def court(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CourtServer]:
    folder: Path = tmp_path_factory.mktemp("live-bench")
    env = {"DATABASE_URL": f"sqlite:///{folder}/court.db", "DEADLINES": "off"}
    server = CourtServer(env, folder / "court.log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=[True, False], ids=["keyed", "unkeyed"])
def table(
    live_court: ModuleType, court: CourtServer, request: pytest.FixtureRequest
) -> Iterator[object]:
    """A started 6-player game with its seats' pages and one spectator's connected: each seat
    keys its device and signs its moves as the court page does, or none does."""
    from live_peers import Room, close_all, connect_all

    http = live_court.CourtHttp(court.url, keyed=request.param)
    table = live_court.Table(
        http, http.start_game(), Room(live_court.PLAYERS + SPECTATORS), SPECTATORS
    )
    try:
        connect_all(court.url, table.auths())
        yield table
    finally:
        close_all(table.peers)
        http.close()


def records_of(table, record_type: str) -> list[dict]:
    return [r for v, r in sorted(table.observer.records.items()) if r["type"] == record_type]


def test_the_live_bench_table_plays_the_warden_election_of_two_rounds_in_a_row(table) -> None:
    """R-4.1, R-4.2: between the elections the table passes, ends purchases and closes the
    host's phases until the next round's Warden election opens."""
    # given the first Warden election played
    table.to_first_election()
    first: list[float] = []
    table.play_election(first)
    # when the table goes on to the next election and plays it
    table.to_next_election()
    view = table.http.view(table.game, table.game.host_token)
    second: list[float] = []
    table.play_election(second)
    # then the next election opened in the second round's decree phase, after income (the
    # peers joined once the game had started: the first round began before their records)
    assert (view["game"]["round"], view["game"]["phase"]) == (2, "decrees")
    assert view["election"]["id"] == "warden-north"
    assert [r["data"]["round"] for r in records_of(table, "RoundStarted")] == [2]
    assert len(records_of(table, "IncomePaid")) == 1
    elections = [
        r for r in records_of(table, "ElectionOpened") if r["data"]["election"] == "warden-north"
    ]
    assert len(elections) == 2
    # and both elections were played whole, each ending with the title refused
    assert len(first) == len(second) == ELECTION_COMMANDS
    assert len(records_of(table, "TitleRefused")) == 2
    assert not table.moves
    # and every page followed every push as the court page does: its view changed, its
    # records chained, each signed move believed (a keyed table signs each of its moves)
    assert table.faults() == 0
    covered = {
        r["version"] + n
        for r in records_of(table, "MoveSigned")
        for n in range(1, r["data"]["records"] + 1)
    }
    moves = [
        r["version"]
        for kind in ("CandidateStood", "BallotPlaced", "TitleRefused")
        for r in records_of(table, kind)
    ]
    assert len(moves) == 2 * 7  # three candidacies, three ballots and a refusal an election
    assert covered.issuperset(moves) if table.http.keyed else not covered
    head = table.http.view(table.game, None)["game"]["version"]
    assert [p.page.court["game"]["version"] for p in table.peers] == [head] * len(table.peers)


def test_the_live_bench_table_says_so_when_no_election_opens_within_its_moves(
    table, live_court: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given the first Warden election played, and a table that may play two moves only
    table.to_first_election()
    table.play_election([])
    monkeypatch.setattr(live_court, "MAX_ADVANCES", 2)
    # when it goes on to the next election, then it fails, naming the election and the moves
    with pytest.raises(RuntimeError, match="no warden-north election after 2 moves"):
        table.to_next_election()


def kept_alive(http) -> set[tuple[str, int]]:
    """The local addresses of the connections the table's session keeps for the server."""
    pools = http.session.get_adapter(http.url).poolmanager.pools  # it cannot be iterated
    return {
        conn.sock.getsockname()
        for pool in [pools[key] for key in list(pools.keys())]
        for conn in pool.pool.queue
        if conn is not None and conn.sock is not None
    }


def test_the_live_bench_table_does_not_reuse_a_connection_left_idle(
    live_court: ModuleType, court: CourtServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The court's gunicorn drops a kept-alive connection after 5 s: a request sent on it as
    it goes is reset, so the table opens a new one after a pause (here of 0.2 s)."""
    monkeypatch.setattr(live_court, "IDLE_SECONDS", 0.2)
    http = live_court.CourtHttp(court.url)
    try:
        # given a game started on one kept-alive connection
        game = http.start_game()
        busy = kept_alive(http)
        # when the table asks again at once, then after a pause
        http.view(game, None)
        again = kept_alive(http)
        time.sleep(0.3)
        http.view(game, None)
        # then the busy connection served the first request, a new one the second
        assert len(busy) == 1 and again == busy
        assert kept_alive(http).isdisjoint(busy) and len(kept_alive(http)) == 1
    finally:
        http.close()
