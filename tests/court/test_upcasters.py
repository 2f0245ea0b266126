"""Old shapes of stored events (section 10, court/log/codec.py): a log written before a schema
change is never edited; read through the upcasters, its records decode into the current
events, fold into the same court, read as the same sentences, and the log still verifies."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from court.audit import audit
from court.commands import (
    SPECTATOR,
)
from court.errors import BadRecord
from court.events import (
    BallotOpened,
    BallotsRevealed,
    EndVoteCast,
    Event,
    GameCreated,
    GameEnded,
    GameStarted,
    HostTakenOver,
    HostVoteCast,
    IncomePaid,
    SeatHanded,
    TitleReturned,
    TitleSlotsExceeded,
)
from court.evolve import evolve, initial
from court.ids import GameId, HouseId, NobleId, Seat, TitleId
from court.log import codec
from court.log.chain import Record, canonical
from court.sentences import describe
from court.state import CourtState
from court.views import Observer
from tests.court.chained_logs import Line, chained, rechain, records
from tests.court.given import GAME, Table, seat, started
from tests.court.played_game import played_to_the_end

# The events whose stored shape changed: each, with how version 1 of the code stored it.
OldShape = Callable[[dict[str, Any]], dict[str, Any]]


def _pairs(field: str, first: str, second: str) -> OldShape:
    """The field as schema 1 stored it: [[first, second], ...]."""

    def old(data: dict[str, Any]) -> dict[str, Any]:
        return {**data, field: [[item[first], item[second]] for item in data[field]]}

    return old


def _reveal_before_its_round(data: dict[str, Any]) -> dict[str, Any]:
    """A reveal written before `round` was recorded: pairs of votes and no round."""
    old = _pairs("votes", "noble", "votes")(data)
    del old["round"]
    return old


OLD_SHAPES: dict[str, OldShape] = {
    "IncomePaid": _pairs("amounts", "house", "gold"),
    "BallotOpened": _pairs("weights", "seat", "votes"),
    "BallotsRevealed": _pairs("votes", "noble", "votes"),
    "SeptsPillaged": _pairs("shares", "house", "gold"),
    "GameEnded": _pairs("points", "seat", "points"),
}


@pytest.fixture(scope="module")
def current() -> list[Line]:
    """The log as the code writes it now."""
    return chained(played_to_the_end())


def as_stored_by_schema_1(lines: list[Line], old: dict[str, OldShape]) -> list[Record]:
    """The same game as the code of schema 1 stored it: the changed records in their old
    shape and version, the chain computed over them as it was then."""
    lines = copy.deepcopy(lines)
    for line in lines:
        if line["type"] in old:
            line["data"] = old[line["type"]](line["data"])
            line["schema_version"] = 1
    return rechain(lines)


def fold(log: list[Record]) -> CourtState:
    state = initial(GameId(GAME))
    for record in log:
        state = evolve(state, codec.decode(record.type, record.schema_version, record.data, None))
    return state


def test_the_log_holds_each_changed_event(current: list[Line]) -> None:
    """The game above really writes every event whose shape changed."""
    assert set(OLD_SHAPES) <= {line["type"] for line in current}
    assert all(codec.schema_version(name) >= 2 for name in OLD_SHAPES)


@pytest.mark.parametrize("name", sorted(OLD_SHAPES))
def test_an_old_record_decodes_into_the_current_event(current: list[Line], name: str) -> None:
    """Given a record of schema 1 (a list of pairs), when decoded, then the very event the
    code writes now: a list of objects."""
    old_log = as_stored_by_schema_1(current, {name: OLD_SHAPES[name]})
    for new, old in zip(records(current), old_log, strict=True):
        if new.type != name:
            continue
        assert old.schema_version == 1 and isinstance(old.data[_field(name)][0], list)
        event = codec.decode(old.type, 1, old.data, old.private)
        assert event == codec.decode(new.type, new.schema_version, new.data, new.private)
        assert codec.encode(event)[1] == new.data


def _field(name: str) -> str:
    return {
        "IncomePaid": "amounts",
        "BallotOpened": "weights",
        "BallotsRevealed": "votes",
        "SeptsPillaged": "shares",
        "GameEnded": "points",
    }[name]


def test_an_old_log_verifies_and_folds_into_the_same_court(current: list[Line]) -> None:
    """Given the whole game as schema 1 stored it, when audited and folded, then every check
    passes (the tally of R-7.1 step 5 against the old votes too) and the court is the one
    the current log makes."""
    old_log = as_stored_by_schema_1(current, OLD_SHAPES)
    assert [r.hash for r in old_log] != [line["hash"] for line in current]
    result = audit(old_log)
    assert result.ok, result
    assert fold(old_log) == fold(records(current))


def test_an_old_record_reads_as_the_same_sentence(current: list[Line]) -> None:
    """The history tells an old record as it tells the current one (the income of R-4.5, the
    pillage of R-6.2, the count of R-7.1, the winners of R-4.7)."""
    old_log = as_stored_by_schema_1(current, OLD_SHAPES)
    state = fold(records(current))
    for new, old in zip(records(current), old_log, strict=True):
        if new.type in OLD_SHAPES:
            assert describe(old, state) == describe(new, state)


def record_view(record: Record, state: CourtState) -> dict[str, Any]:
    return Observer.of(SPECTATOR, state).told(record, state)


def test_a_client_is_shown_an_old_record_in_the_current_shape(current: list[Line]) -> None:
    """A rendered record (the `events` push, /events) and a history entry have one shape per
    type: the stored pairs are shown as objects, with the schema version of that shape."""
    old_log = as_stored_by_schema_1(current, OLD_SHAPES)
    state = fold(records(current))
    observer = Observer.of(SPECTATOR, state)
    for new, old in zip(records(current), old_log, strict=True):
        shown = record_view(old, state)
        assert shown["data"] == record_view(new, state)["data"]
        assert shown["schema_version"] == codec.schema_version(new.type)
        assert shown["hash"] == old.hash
        assert observer.entry(old, state)["data"] == observer.entry(new, state)["data"]


def test_a_record_of_a_type_this_server_does_not_know_is_shown_as_stored(
    current: list[Line],
) -> None:
    line = {**copy.deepcopy(current[-1]), "type": "DragonHatched", "schema_version": 7}
    shown = record_view(Record.from_json(line), fold(records(current)))
    assert (shown["data"], shown["schema_version"]) == (line["data"], 7)
    assert shown["text"] == f"DragonHatched (version {line['version']})."


def test_a_reveal_stored_before_its_round_was_recorded_reads_with_no_round(
    current: list[Line],
) -> None:
    """Schema 1 reveals did not always hold their round: read, the round is None (never
    recorded), the court folds the same, and the sentence names no round rather than a
    wrong one (R-7.1)."""
    old_log = as_stored_by_schema_1(current, {"BallotsRevealed": _reveal_before_its_round})
    assert audit(old_log).ok
    assert fold(old_log) == fold(records(current))
    state = fold(records(current))
    old = next(r for r in old_log if r.type == "BallotsRevealed")
    new = next(r for r in records(current) if r.type == "BallotsRevealed")
    assert "round" not in old.data
    event = codec.decode(old.type, old.schema_version, old.data, None)
    assert isinstance(event, BallotsRevealed) and event.round is None
    assert event == replace(codec.decode(new.type, 2, new.data, None), round=None)
    assert describe(new, state).startswith("Round 2, Warden of the North: Robb Stark elected")
    assert describe(old, state) == "Warden of the North: Robb Stark elected with 4 votes."


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("IncomePaid", {"round": 1, "amounts": [["stark", 3], ["lannister", 1]]}),
        ("BallotOpened", {"weights": [[0, 5], [1, 1]]}),
        ("SeptsPillaged", {"septs": ["winterfell"], "shares": [["stark", 2]]}),
        ("GameEnded", {"winners": [0], "points": [[0, 3], [1, 0]], "reason": "x"}),
    ],
)
def test_each_upcaster_turns_pairs_into_objects(name: str, data: dict[str, Any]) -> None:
    """The upcaster keyed by (type, 1) alone: every pair becomes an object, nothing else."""
    upcast = codec.UPCASTERS[(name, 1)](data)
    field = _field(name)
    assert all(isinstance(item, dict) and len(item) == 2 for item in upcast[field])
    assert [list(item.values()) for item in upcast[field]] == data[field]
    assert {k: v for k, v in upcast.items() if k != field} == {
        k: v for k, v in data.items() if k != field
    }


def test_a_current_record_is_not_upcast_nor_copied() -> None:
    data = {"round": 1, "amounts": [{"house": "stark", "gold": 3}]}
    assert codec.upcast("IncomePaid", 2, data) is data


def test_a_pair_in_a_current_record_is_refused() -> None:
    """Schema 2 holds objects: a pair stored with it is a malformed record, not guessed at."""
    with pytest.raises(BadRecord) as err:
        codec.decode("IncomePaid", 2, {"round": 1, "amounts": [["stark", 3]]}, None)
    assert err.value.code == "bad_event_data"
    income = codec.decode("IncomePaid", 1, {"round": 1, "amounts": [["stark", 3]]}, None)
    assert isinstance(income, IncomePaid) and income.amounts[0].house == "stark"


def test_weights_read_from_an_old_ballot_are_the_votes_of_the_election(
    current: list[Line],
) -> None:
    """R-7.2: the votes fixed when the ballot opened are the same read from either shape."""
    old_log = as_stored_by_schema_1(current, {"BallotOpened": OLD_SHAPES["BallotOpened"]})
    opened = next(r for r in old_log if r.type == "BallotOpened")
    event = codec.decode(opened.type, 1, opened.data, None)
    assert isinstance(event, BallotOpened)
    assert {w.seat: w.votes for w in event.weights} == {0: 4, 1: 1, 2: 0}


def test_a_seat_paid_for_and_lapsed_before_refunds_reads_as_it_wasplayed_to_the_end() -> None:
    """R-4.6 as it stood before refunds: a log whose seat lapsed after its price was paid (a
    GoldPaid and a CouncilSeatLapsed of schema 1, a reveal marking no bid) is read through the
    upcasters as a payment that bought what came with it and a lapse that refunded nothing;
    it verifies, every Gold Dragon accounted for, and the price stays paid as it did."""
    from court.commands import CloseOverdueStep, PassBid, PlaceBid
    from court.decide import decide
    from tests.court.purchase_moments import sale_events

    table = Table(*sale_events(now=0.0, title_choice=30))
    start = table.state
    table.add(*decide(table.state, PassBid(), seat(0), 1.0))
    table.add(*decide(table.state, PlaceBid(amount=3, salt="s"), seat(1), 2.0))
    table.add(*decide(table.state, CloseOverdueStep(), seat(0), 40.0))
    assert table.state.treasury["lannister"] == start.treasury["lannister"]  # refunded now
    lines = chained(table.events)
    for line in lines:
        data = line["data"]
        if line["type"] == "GoldPaid" and data.pop("held"):
            line["schema_version"] = 1
        elif line["type"] == "CouncilSeatLapsed":
            data.pop("refund")
            line["schema_version"] = 1
        elif line["type"] == "BidsRevealed":
            for bid in data["bids"]:
                del bid["no_warden"]
    old_log = rechain(lines)
    assert audit(old_log).ok
    kept = fold(old_log)
    assert kept.treasury["lannister"] == start.treasury["lannister"] - 3
    assert kept.ledger.held == {} and kept.auction is None


# Events that gained fields in schema 2, each with what a schema-1 record reads as in them:
# never recorded, so unknown.
ADDED: list[tuple[Event, dict[str, Any]]] = [
    (GameStarted(seat_order=(Seat(0), Seat(1)), first_player=Seat(0), at=5.0), {"at": 0.0}),
    (
        HostTakenOver(
            from_seat=Seat(0),
            to_seat=Seat(2),
            from_name="Ann",
            to_name="Cat",
            votes=2,
            seats=2,
            voters=(Seat(1), Seat(2)),
            host_away_since=3.0,
        ),
        {"voters": (), "host_away_since": None},
    ),
    (
        TitleReturned(
            title=TitleId("fief-winterfell"), noble=NobleId("robb-stark"), reason="x", refund=8
        ),
        {"refund": 0},
    ),
    (
        TitleSlotsExceeded(
            seat=Seat(0),
            noble=NobleId("robb-stark"),
            category="fief",
            title=TitleId("fief-winterfell"),
            deadline=None,
            price=8,
        ),
        {"price": 0},
    ),
]


@pytest.mark.parametrize(("event", "unknown"), ADDED, ids=lambda v: type(v).__name__)
def test_a_record_from_before_a_field_was_added_reads_it_as_unknown(
    event: Event, unknown: dict[str, Any]
) -> None:
    name, data, private = codec.encode(event)
    old = {key: value for key, value in data.items() if key not in unknown}

    assert codec.schema_version(name) == 2
    assert codec.decode(name, 1, old, private) == replace(event, **unknown)


def test_an_old_takeover_reads_as_the_votes_of_every_seat() -> None:
    """Logs from before the voters were named counted every seat, and say so."""
    old = {"from_seat": 0, "to_seat": 2, "from_name": "Ann", "to_name": "Cat", "votes": 2}
    record = Record.from_json(
        {
            "game_id": GAME,
            "version": 9,
            "type": "HostTakenOver",
            "schema_version": 1,
            "recorded_at": "2026-11-24T10:00:00.000000Z",
            "seat": None,
            "data": {**old, "seats": 3},
            "private": None,
            "private_sha256": "",
            "hash": "",
        }
    )
    assert describe(record, initial(GameId(GAME))) == (
        "Cat became the host in place of Ann, by the votes of 2 of the 3 seats."
    )


def test_a_game_created_before_names_reads_as_a_game_without_one() -> None:
    """Schema 2 of GameCreated held no name; schema 1 neither, nor a listing."""
    (event,) = [e for e in started(3) if isinstance(e, GameCreated)]
    named = replace(event, name="The Red Wedding")
    name, data, private = codec.encode(named)
    old = {key: value for key, value in data.items() if key != "name"}

    assert codec.schema_version(name) == 3
    assert codec.decode(name, 2, old, private) == replace(named, name=None)
    first = {key: value for key, value in old.items() if key != "listed"}
    assert codec.decode(name, 1, first, private) == replace(named, name=None, listed=True)


def handed_to_eve() -> SeatHanded:
    return SeatHanded(
        seat=Seat(1),
        house=HouseId("lannister"),
        old_player_name="Bob",
        player_name="Eve",
        token_sha256="e" * 64,
        at_version=9,
        at=1234.5,
    )


def test_a_hand_over_recorded_before_its_time_reads_with_none() -> None:
    """Schema 2 of SeatHanded held no time (0.0: the new player's absence counts as before,
    from his seat's last replacement or the start); schema 1 no version either."""
    handed = handed_to_eve()
    name, data, private = codec.encode(handed)
    old = {key: value for key, value in data.items() if key != "at"}

    assert codec.schema_version(name) == 4
    kept = replace(handed, at=0.0, fresh=False)
    assert codec.decode(name, 2, {k: v for k, v in old.items() if k != "fresh"}, private) == kept
    first = {key: value for key, value in old.items() if key not in ("at_version", "fresh")}
    assert codec.decode(name, 1, first, private) == replace(kept, at_version=0)


def test_a_hand_over_recorded_before_seats_started_afresh_keeps_votes_and_banks() -> None:
    """R-9.2: schema 3 of SeatHanded kept the seat's votes, clock banks and standing (no new
    player had to open his link): read, it is no fresh hand-over, so an old game folds as it
    did when it was played."""
    handed = handed_to_eve()
    name, data, private = codec.encode(handed)
    old = {key: value for key, value in data.items() if key != "fresh"}
    assert codec.decode(name, 3, old, private) == replace(handed, fresh=False)
    table = Table(*started(3))
    table.add(EndVoteCast(seat=Seat(1)))
    table.add(codec.decode(name, 3, old, private))
    assert table.state.table.end == {Seat(1)} and not table.state.seats[Seat(1)].unclaimed


@pytest.mark.parametrize(("winners", "how"), [([0], "victory"), ([], "table")])
def test_an_end_recorded_before_it_said_how_reads_as_the_only_ends_there_were(
    winners: list[int], how: str
) -> None:
    """GameEnded 2 -> 3: before the last round (R-4.8) a game ended with winners only at the
    victory check (R-4.7), and without any only by the table's vote."""
    data = {"winners": winners, "points": [{"seat": 0, "points": 3}], "reason": "x"}
    event = codec.decode("GameEnded", 2, data, None)
    assert isinstance(event, GameEnded) and event.how == how


def test_a_vote_for_a_host_recorded_before_the_absence_it_counted_reads_with_none() -> None:
    """Schema 2 of HostVoteCast held no absence (None: not recorded); schema 1 no time either.
    A vote that records the absence it counted can be decided again from the log alone."""
    cast = HostVoteCast(seat=Seat(1), for_seat=Seat(2), at=5.0, host_away_since=3.0)
    name, data, private = codec.encode(cast)
    old = {key: value for key, value in data.items() if key != "host_away_since"}

    assert codec.schema_version(name) == 3
    assert codec.decode(name, 2, old, private) == replace(cast, host_away_since=None)
    first = {key: value for key, value in old.items() if key != "at"}
    assert codec.decode(name, 1, first, private) == replace(cast, at=None, host_away_since=None)


def test_a_page_is_given_the_stored_text_only_where_it_cannot_make_it(
    current: list[Line],
) -> None:
    """Given a game's records stored in the current shape and in the old one, when each is
    told, then an old-shaped record carries its public part's text as stored, and a current
    one carries none unless its public part holds a float: for every other record the
    canonical JSON of the shown part, as a page makes it, is the stored text (docs/protocol.md,
    "Records a page shows")."""
    old_log = as_stored_by_schema_1(current, OLD_SHAPES)
    state = fold(records(current))
    for new, old in zip(records(current), old_log, strict=True):
        told_new, told_old = record_view(new, state), record_view(old, state)
        if old.schema_version != codec.schema_version(old.type):
            assert told_old["hashed"] == {
                "schema_version": old.schema_version,
                "private_sha256": old.private_sha256,
                "data_json": canonical(old.data),
            }
        floats = any(isinstance(v, float) for v in new.data.values())
        assert ("hashed" in told_new) is floats, new.type
        if not floats:
            assert canonical(json.loads(json.dumps(told_new["data"]))) == canonical(new.data)


def test_a_float_or_a_long_integer_keeps_the_stored_text(current: list[Line]) -> None:
    """Given a record whose public part holds 1.0 (JavaScript writes 1) or 2**53 (past what a
    double holds), when told, then it carries the stored text."""
    state = fold(records(current))
    for value in (1.0, 2**53, -(2**53), 0.5):
        line = {**copy.deepcopy(current[-1]), "data": {**current[-1]["data"], "at": value}}
        told = record_view(Record.from_json(line), state)
        assert told["hashed"]["data_json"] == canonical(line["data"]), value
    line = {**copy.deepcopy(current[-1]), "data": {**current[-1]["data"], "at": 2**53 - 1}}
    assert "hashed" not in record_view(Record.from_json(line), state)
