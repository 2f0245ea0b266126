"""The fold's golden record: fixed stored logs, and the courts they fold into under the snapshot
`FORMAT` (court/log/snapshot.py), for test_fold_golden.py to hold the fold to.

A snapshot is a stored fold: a server reads one back as if its own code had folded the log up
to there. So while FORMAT stays the same, the same stored log must fold into the same court,
whatever court/evolve looks like. The logs in data/fold_logs are a few games played by the
simulator with fixed seeds and one built here by hand (the lobby, the host role, ransoms,
pardons, the Night's Watch, the game's end), and a few more of what it never does (a person's
keys among them); like stored logs they are never rewritten, so a change in deciding, in the
simulator or in config/ leaves them as they are. data/fold_golden.json
holds, under the number it was written for, the digest of the court at every `EVERY`-th version
of each log and at its end, and the digest of the state's shape.

    python -m tests.court.fold_golden --write    # record the fold under the current FORMAT
    python -m tests.court.fold_golden --record   # record the logs of BUILDERS not stored yet,
                                                 # then --write

When the fold changes on purpose, bump FORMAT, then --write: `--write` refuses to record another
fold of an unchanged log under the number it was recorded under. A new kind of event needs a
stored log that folds it: add a new builder to BUILDERS (a stored log is never recorded again,
so changing an old builder does nothing), then --record.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import Any

from court.commands import (
    AcceptRansom,
    Actor,
    ChangeListing,
    Desert,
    GrantFiefTitle,
    HandHost,
    HandSeat,
    LeaveSeat,
    MarkerChoice,
    OfferRansom,
    Pardon,
    Pass,
    PlaceBallot,
    RecordCapture,
    RecordDeath,
    RecordVillageControl,
    RefuseRansom,
    RemoveSeat,
    RenameGame,
    SendToWall,
    StandForElection,
    StartGame,
    VoteForHost,
    WithdrawRansom,
)
from court.events import Event, GameEnded, OutlawDeclared, TitleGranted
from court.evolve import evolve, initial
from court.ids import GameId, HouseId, NobleId, Seat, TitleId
from court.log import codec, snapshot
from court.state import CourtState
from tests.court.fold_bots import seat_played_by_bot
from tests.court.fold_devices import device_keys
from tests.court.fold_links import seat_links
from tests.court.fold_table import corrections_undone, seats_afresh, table_decides
from tests.court.given import Table, created, joined, seat, started, table_step

DATA = Path(__file__).resolve().parent / "data"
LOGS = DATA / "fold_logs"
GOLDEN = DATA / "fold_golden.json"
COMMAND = "python -m tests.court.fold_golden --write"
# Courts are compared at every EVERY-th version as well as at the end: a snapshot may be kept
# mid-election or mid-decree, where the court holds what the end of a game has cleared again.
EVERY = 25

Line = dict[str, Any]
# name -> (players, variant mix of server/tools/simulate.py's MIXES, seed)
SIMULATED = {
    "sim-3p-all-variants-seed-1": (3, 15, 1),
    "sim-4p-sealed-ballots-seed-5": (4, 4, 5),
    "sim-6p-watch-concession-seed-19": (6, 3, 19),
    "sim-6p-watch-concession-clocks-seed-11": (6, 11, 11),
}
SIMULATED_ROUNDS = 15


# -- the court as a digest ---------------------------------------------------------------


def canonical(value: Any) -> Any:
    """`value` as plain data the way court/log/snapshot.py writes it, but with every set in sorted
    order: a set of strings iterates in another order in each process, maps keep the order
    the fold gave them (a court read back from a snapshot iterates in that order)."""
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if dataclasses.is_dataclass(value):
        # The fields a snapshot holds: indexes declared with compare=False are rebuilt.
        return {
            f.name: canonical(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.compare
        }
    if isinstance(value, dict):
        return [[canonical(k), canonical(v)] for k, v in value.items()]
    if isinstance(value, frozenset | set):
        return sorted((canonical(v) for v in value), key=_text)
    if isinstance(value, tuple | list):
        return [canonical(v) for v in value]
    raise TypeError(f"a court holds no {type(value).__name__}")


def _text(plain: Any) -> str:
    return json.dumps(plain, sort_keys=True, separators=(",", ":"))


def digest(state: CourtState) -> str:
    return hashlib.sha256(_text(canonical(state)).encode()).hexdigest()[:16]


def shape_digest() -> str:
    return hashlib.sha256(snapshot.shape().encode()).hexdigest()[:16]


# -- the stored logs ---------------------------------------------------------------------


def log_text(lines: list[Line]) -> str:
    return "".join(_text(line) + "\n" for line in lines)


def read_log(name: str) -> tuple[str, list[Line]]:
    """A stored log's text and its records (type, schema_version, data, private)."""
    text = gzip.decompress((LOGS / f"{name}.jsonl.gz").read_bytes()).decode()
    return text, [json.loads(line) for line in text.splitlines()]


def stored_names() -> list[str]:
    return sorted(p.name.removesuffix(".jsonl.gz") for p in LOGS.glob("*.jsonl.gz"))


def fold(lines: list[Line]) -> Iterator[tuple[int, CourtState]]:
    """Each version of a stored log and the court after it, folded as the server's replay does:
    every record decoded through the upcasters, then evolved."""
    state = initial(GameId(lines[0]["data"]["game_id"]))
    for version, line in enumerate(lines, start=1):
        event = codec.decode(line["type"], line["schema_version"], line["data"], line["private"])
        state = evolve(state, event)
        yield version, state


def courts(lines: list[Line]) -> dict[str, str]:
    """The digest of the court at every EVERY-th version of a log and at its last."""
    out: dict[str, str] = {}
    for version, state in fold(lines):
        if version % EVERY == 0 or version == len(lines):
            out[str(version)] = digest(state)
    return out


def log_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record_of(text: str, lines: list[Line]) -> dict[str, Any]:
    return {"log": log_digest(text), "courts": courts(lines)}


def current() -> dict[str, Any]:
    """The golden record as this code folds the stored logs."""
    logs = {}
    for name in stored_names():
        text, lines = read_log(name)
        logs[name] = record_of(text, lines)
    return {"format": snapshot.FORMAT, "shape": shape_digest(), "logs": logs}


def load() -> dict[str, Any]:
    golden: dict[str, Any] = json.loads(GOLDEN.read_text())
    return golden


def refusals(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Why `new` may not replace `old`: under the same FORMAT, the state's shape or the courts of
    a log that did not change differ."""
    if old["format"] != new["format"]:
        return []
    found = []
    if old["shape"] != new["shape"]:
        found.append("the state's shape changed")
    for name, then in old["logs"].items():
        now = new["logs"].get(name)
        if now is not None and now["log"] == then["log"] and now["courts"] != then["courts"]:
            found.append(f"{name} folds into other courts")
    return found


def write() -> int:
    new = current()
    found = refusals(load(), new) if GOLDEN.exists() else []
    if found:
        print(
            f"Not written: under snapshot FORMAT {new['format']}, {'; '.join(found)}. Snapshots "
            "written by the older fold would be read back as this one's: bump FORMAT in "
            "court/log/snapshot.py, then write again.",
            file=sys.stderr,
        )
        return 1
    GOLDEN.write_text(json.dumps(new, indent=1) + "\n")
    print(f"{GOLDEN}: {len(new['logs'])} logs under snapshot FORMAT {new['format']}")
    return 0


# -- recording the logs ------------------------------------------------------------------


def _store(name: str, lines: list[Line]) -> None:
    LOGS.mkdir(parents=True, exist_ok=True)
    data = gzip.compress(log_text(lines).encode(), mtime=0)
    (LOGS / f"{name}.jsonl.gz").write_bytes(data)


def _encoded(events: list[Event]) -> list[Line]:
    lines = []
    for event in events:
        name, data, private = codec.encode(event)
        line = {
            "type": name,
            "schema_version": codec.schema_version(name),
            "data": data,
            "private": private,
        }
        lines.append(json.loads(_text(line)))
    return lines


def simulated(name: str) -> list[Line]:
    """A seeded game played by the simulator through the real service, under a game id of its
    name (the simulator draws a fresh one for each game)."""
    from config.rulesdata import load_ruleset
    from server.store.sql import SqlEventStore
    from server.tools.simulate import MIXES, Simulation

    players, mix, seed = SIMULATED[name]
    store = SqlEventStore("sqlite://")
    try:
        store.create_schema()
        game = Simulation(
            store,
            load_ruleset("default"),
            players=players,
            rounds=SIMULATED_ROUNDS,
            seed=seed,
            variants=MIXES[mix],
            random_rules=False,
        )
        game.service.secrets.game_id = lambda: name  # type: ignore[method-assign]
        summary = game.run()
        if summary.problems:
            raise SystemExit(f"{name}: the simulated game has problems: {summary.problems[:3]}")
        records = game.service.records(summary.game_id)
        return [
            {
                "type": r.type,
                "schema_version": r.schema_version,
                "data": r.data,
                "private": r.private,
            }
            for r in records
        ]
    finally:
        store.close()


def court_at_work() -> list[Line]:
    """A game of 4 with the Night's Watch, through what the simulator never does: the lobby
    unlisted and listed, a seat left, removed and handed, the host role handed and taken over
    by vote; ransoms refused, withdrawn and paid; an Outlaw pardoned, a King dead in his turn, a
    Lord sent to the Wall who deserts; a Fief title granted by the next King; the game won."""
    host = seat(0, host=True)
    table = Table(
        created(4, variants__nights_watch=True),
        joined(0, host=True),
        *(joined(i) for i in (1, 2, 3)),
    )
    table.act(ChangeListing(listed=False), host)
    table.act(ChangeListing(listed=True), host)
    table.act(LeaveSeat(), seat(3))
    table.add(joined(3))
    table.act(RemoveSeat(seat=Seat(3)), host)
    table.add(joined(3))
    table.act(HandSeat(seat=Seat(2), token_sha256="e" * 64, player_name="Eve"), host)
    table.act(HandHost(seat=Seat(1)), host)
    table.act(HandHost(seat=Seat(0)), seat(1, host=True))
    table.act(StartGame(), host)
    _decrees(table, lambda step, title: Pass(), host)
    away = VoteForHost(seat=Seat(2), host_away_since=0.0)
    table.act(away, seat(1), now=600.0)
    table.act(VoteForHost(seat=None), seat(1))
    for voter in (1, 2):
        table.act(away, seat(voter), now=600.0)
    host = seat(2, host=True)
    robb, tyrion = NobleId("robb-stark"), NobleId("tyrion-lannister")
    table.act(RecordCapture(noble=robb, house=HouseId("lannister"), cause="Whispering Wood"), host)
    table.act(RecordCapture(noble=tyrion, house=HouseId("stark"), cause="the Eyrie"), host)
    table.act(OfferRansom(captive=robb, gold=2), seat(0))
    table.act(RefuseRansom(offer=1), seat(1))
    table.act(OfferRansom(captive=robb, gold=1), seat(0))
    table.act(WithdrawRansom(offer=2), seat(0))
    table.act(OfferRansom(captive=robb, gold=3, captives=(tyrion,)), seat(0))
    table.act(AcceptRansom(offer=3), seat(1))
    _grant(table, master_of_laws="eddard-stark", king="tywin-lannister", hand="mace-tyrell")
    for outlaw in ("oberyn-martell", "loras-tyrell"):
        table.add(OutlawDeclared(noble=NobleId(outlaw), cause="the table"))
    _next_round(table)

    def decree(step: str, title: str | None) -> Any:
        if step == "royal_pardon" and title == "king":
            return RecordDeath(noble=NobleId("tywin-lannister"), kind="battle", cause="the privy")
        return {
            "royal_pardon": Pardon(noble=NobleId("oberyn-martell")),
            "send_to_wall": SendToWall(noble=NobleId("kevan-lannister")),
            "oathbreakers": Desert(noble=NobleId("kevan-lannister")),
        }.get(step, Pass())

    _decrees(table, decree, host)
    for village in ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin"):
        table.act(RecordVillageControl(village=village, house="lannister", cause="battle"), host)
    _grant(table, king="eddard-stark")
    while table.state.purchase_turns is None or table.state.purchase_turns.current != Seat(0):
        table.add(*table_step(table.state))
    jaime = NobleId("jaime-lannister")
    table.act(GrantFiefTitle(title=TitleId("fief-winterfell"), noble=jaime), seat(0))
    _grant(table, fief_the_eyrie="bran-stark", hand="robb-stark")
    while not isinstance(table.events[-1], GameEnded):
        table.add(*table_step(table.state))
    return _encoded(table.events)


def seat_refunded() -> list[Line]:
    """A game of 3 where the fourth council seat's top bidder loses his only Warden before the
    reveal and is dropped, the next bid buys and the bank holds its price, two Join the Small
    Council events fill the free Masters and the seat lapses with its refund (R-4.6); then
    Bran, elected Warden of the North, dies before his player takes the title, and the choice
    lapses (section 9)."""
    from court.commands import JoinSmallCouncil, PassBid, PlaceBid, StandForElection
    from court.state import Stage
    from tests.court.moments import ballot

    table = Table(*started(3))
    _grant(
        table,
        warden_north="robb-stark",
        warden_west="jaime-lannister",
        warden_south="mace-tyrell",
        warden_east="tywin-lannister",
        master_of_ships="tywin-lannister",
        warden_crownlands="garlan-tyrell",
        master_of_whisperers="garlan-tyrell",
    )
    while table.state.auction is None:
        table.add(*table_step(table.state))
    table.act(PlaceBid(amount=5, salt="a"), seat(0))
    table.act(RecordDeath(noble=NobleId("robb-stark"), kind="battle", cause="the Twins"))
    table.act(PlaceBid(amount=3, salt="b"), seat(1))
    table.act(PassBid(), seat(2))
    for lord, master in (("jaime-lannister", "master-of-coin"), ("mace-tyrell", "master-of-laws")):
        table.act(JoinSmallCouncil(noble=NobleId(lord), title=TitleId(master), cause="card"))
    for village in ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin"):
        table.act(RecordVillageControl(village=village, house="stark", cause="battle"))
    _next_round(table)
    while table.state.decree is not None and table.state.decree.current is not None:
        table.act(Pass(), seat(table.state.decree.current))
    while (election := table.state.election) is not None and election.current is not None:
        stark = election.current == 0
        if election.stage is Stage.CANDIDACY:
            move: Any = StandForElection(noble=NobleId("bran-stark")) if stark else Pass()
        else:
            move = ballot(("for", "bran-stark")) if stark else Pass()
        table.act(move, seat(election.current))
    assert table.state.pending is not None
    table.act(RecordDeath(noble=NobleId("bran-stark"), kind="assassination", cause="a dagger"))
    return _encoded(table.events)


def _grant(table: Table, **titles: str) -> None:
    for title, noble in titles.items():
        granted = TitleId(title.replace("_", "-"))
        table.add(TitleGranted(title=granted, noble=NobleId(noble), cause="the table"))


def _next_round(table: Table) -> None:
    start = table.state.round
    while table.state.round == start:
        table.add(*table_step(table.state))


def _decrees(table: Table, move: Callable[[str, str | None], Any], host: Actor) -> None:
    """Every turn of phase 1's decree steps: the command `move` names for the step and the
    title the turn acts through, made by the seat whose turn it is, or by the host for a fact."""
    while table.state.decree is not None and table.state.decree.current is not None:
        decree = table.state.decree
        command = move(decree.id, decree.power.title if decree.power is not None else None)
        table.act(command, host if isinstance(command, RecordDeath) else seat(decree.current))


def host_away() -> list[Line]:
    """A game of 3 whose host leaves: Lannister's seat handed to Eve while its ballot lies
    sealed (the hand-over's version recorded), a vote for a new host of an earlier absence that
    no longer counts, and the takeover by the two other seats, naming them."""
    host = seat(0, host=True)
    table = Table(created(3), joined(0, host=True), joined(1), joined(2))
    table.act(StartGame(), host, now=1000.0)
    _decrees(table, lambda step, title: Pass(), host)
    for village, house in zip(NORTH, ("stark", "stark", "lannister", "lannister"), strict=True):
        table.act(RecordVillageControl(village=village, house=house, cause="battle"), host)
    _next_round(table)
    _decrees(table, lambda step, title: Pass(), host)
    lords = {Seat(0): "robb-stark", Seat(1): "jaime-lannister"}
    election = table.state.election
    while election is not None and election.stage.value == "candidacy":
        current = election.current
        assert current is not None
        lord = lords.get(current)
        table.act(Pass() if lord is None else StandForElection(noble=NobleId(lord)), seat(current))
        election = table.state.election
    assert election is not None and election.current == Seat(1), election
    marker = MarkerChoice(kind="for", candidate=NobleId("jaime-lannister"), salt="salt")
    table.act(PlaceBallot(markers=(marker,)), seat(1))
    handed = HandSeat(seat=Seat(1), token_sha256="e" * 64, player_name="Eve")
    table.act(dataclasses.replace(handed, at_version=len(table.events) + 1), host)
    table.act(VoteForHost(seat=Seat(2), host_away_since=1100.0), seat(1), now=2000.0)
    later = VoteForHost(seat=Seat(2), host_away_since=2500.0)
    table.act(later, seat(2), now=3200.0)
    table.act(later, seat(1), now=3300.0)
    assert table.state.seats[Seat(2)].host
    return _encoded(table.events)


def named_game() -> list[Line]:
    """A game of 3 named by its host at creation, renamed in the lobby and again in play."""
    host = seat(0, host=True)
    made = dataclasses.replace(created(3), name="Saturday at Ann's")
    table = Table(made, joined(0, host=True), joined(1), joined(2))
    table.act(RenameGame(name="The Red Wedding"), host)
    table.act(StartGame(), host, now=1000.0)
    table.act(RenameGame(name="The Purple Wedding"), host)
    assert table.state.name == "The Purple Wedding"
    return _encoded(table.events)


NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


# Every log the golden record folds, by name: the stored file is the log; its builder is only
# run by --record, for a log that is not stored yet.
BUILDERS: dict[str, Callable[[], list[Line]]] = {
    "court-at-work": court_at_work,
    "seat-refunded-choice-lapsed": seat_refunded,
    "host-away": host_away,
    "named-game": named_game,
    "table-decides": lambda: _encoded(table_decides()),
    "seats-afresh-last-round": lambda: _encoded(seats_afresh()),
    "corrections-undone": lambda: _encoded(corrections_undone()),
    "seat-links": lambda: _encoded(seat_links()),
    "device-keys": lambda: _encoded(device_keys()),
    "seat-played-by-bot": lambda: _encoded(seat_played_by_bot()),
    **{name: (lambda name=name: simulated(name)) for name in SIMULATED},
}


def record() -> int:
    for name, build in BUILDERS.items():
        if not (LOGS / f"{name}.jsonl.gz").exists():
            _store(name, build())
            print(f"recorded {name}")
    return write()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.court.fold_golden", description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="record the fold of the logs")
    action.add_argument("--record", action="store_true", help="record missing logs, then --write")
    args = parser.parse_args(argv)
    return record() if args.record else write()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
