"""A seat the host hands to a new token is its new holder's from the hand-over on: the court
view, the court at an older version and the records' private parts keep what the seat held
sealed before to its old holder until the reveal (R-7.1 step 3, R-4.6). A seat never handed
sees all its own, as before; once the game has ended everyone sees everything (section 10)."""

from __future__ import annotations

import copy
from dataclasses import replace

from court.audit import audit
from court.commands import Actor, HandSeat
from court.events import SeatHanded
from court.evolve import evolve
from court.ids import Seat
from court.state import Auction, CourtState, GameStatus, SealedBid
from court.views import Observer
from tests.court.chained_logs import chained, north_ballot, rechain, records
from tests.court.given import HOST, Table, seat, started
from tests.court.moments import ballot

EVE = "e" * 64
LANNISTER = Seat(1)


def observer(viewer: Actor, now: CourtState) -> Observer:
    return Observer.of(viewer, now)


def lannister_placed() -> Table:
    """The Warden of the North's ballot (`north_ballot`): Lannister has placed FOR Jaime and
    DECOY Robb; Stark has yet to place."""
    table = north_ballot()
    table.act(ballot(("for", "jaime-lannister"), ("decoy", "robb-stark"), salt="l"), seat(1))
    return table


def handed(table: Table, player_name: str | None = "Eve") -> int:
    """The host hands Lannister's seat to EVE; the version of the hand-over."""
    version = len(table.events) + 1
    command = HandSeat(seat=LANNISTER, token_sha256=EVE, player_name=player_name)
    (event,) = table.act(replace(command, at_version=version), HOST)
    assert isinstance(event, SeatHanded) and event.at_version == version
    return version


def test_the_hand_over_records_its_version_and_what_the_seat_held_sealed() -> None:
    """Given Lannister's markers lying sealed, when the host hands his seat to Eve, then the
    seat remembers the version and the markers' commitments."""
    table = lannister_placed()
    placed = table.state.election.placements[LANNISTER]  # type: ignore[union-attr]

    version = handed(table)

    info = table.state.seats[LANNISTER]
    assert info.handed_at == version
    assert info.withheld == frozenset(m.commitment for m in placed)


def test_a_new_token_sees_no_kind_of_the_old_players_markers_in_the_court() -> None:
    """R-7.1 step 3: Eve's court shows Lannister's markers placed, face down, and none of
    their kinds, at the head and at any older version; the court says she was handed the
    seat. Before the hand-over, the old player saw his own."""
    table = lannister_placed()
    before = table.state
    mine = observer(seat(1), before).court(before, len(table.events))
    assert {m["kind"] for m in mine["election"]["my_markers"]} == {"for", "decoy"}

    version = handed(table)

    eve = observer(seat(1), table.state)
    now = eve.court(table.state, version)
    assert now["election"]["my_markers"] == []
    assert [p["seat"] for p in now["election"]["placed"]] == [LANNISTER]
    assert now["viewer"]["handed_over"] == {"at_version": version, "by": "host"}
    assert eve.court(before, version - 1)["election"]["my_markers"] == []
    stark = observer(seat(0), table.state).court(table.state, version)
    assert stark["viewer"]["handed_over"] is None


def test_a_new_token_is_shown_no_private_part_the_seat_recorded_before_it() -> None:
    """R-7.1 step 3: the private part of Lannister's placement is withheld from Eve's token
    in the records, and shown to the seat from the hand-over on; at the game's end, to all."""
    table = lannister_placed()
    version = handed(table)
    log = records(chained(table.events))
    placement = next(r for r in log if r.type == "BallotPlaced")
    assert placement.seat == LANNISTER and placement.private is not None

    eve = observer(seat(1), table.state)
    assert eve.told(placement, table.state)["private"] is None
    assert eve.record(placement)["private"] is None
    assert eve.sees_private(replace(placement, version=version))
    old = observer(seat(1), evolve_upto(table, version - 1))
    assert old.told(placement, table.state)["private"] is not None
    ended = replace(table.state, status=GameStatus.ENDED)
    assert observer(seat(1), ended).sees_private(placement)


def evolve_upto(table: Table, version: int) -> CourtState:
    state = Table().state
    for event in table.events[:version]:
        state = evolve(state, event)
    return state


def test_after_the_reveal_everyone_reads_the_old_players_markers() -> None:
    """R-7.1 steps 4-5: the reveal is public; Eve reads Lannister's FOR in it as everyone."""
    table = lannister_placed()
    handed(table)
    events = table.act(ballot(("for", "robb-stark"), salt="s"), seat(0))
    revealed = records(chained(table.events))[-len(events) + 1]
    assert revealed.type == "BallotsRevealed"

    told = observer(seat(1), table.state).told(revealed, table.state)

    kinds = {(m["candidate"], m["kind"]) for m in told["data"]["markers"] if m["seat"] == 1}
    assert kinds == {("jaime-lannister", "for"), ("robb-stark", "decoy")}


def test_a_seats_own_token_moved_to_a_new_device_by_the_host_starts_afresh_too() -> None:
    """A lost device: the host hands the seat to a new token for the same player; the new
    token, whoever holds it, opens nothing sealed before."""
    table = lannister_placed()
    version = handed(table, player_name=None)
    court = observer(seat(1), table.state).court(table.state, version)
    assert court["election"]["my_markers"] == []
    assert table.state.seats[LANNISTER].player_name == "Player 2"


def test_a_sealed_bid_lying_at_the_hand_over_stays_the_old_bidders() -> None:
    """R-4.6: a bid's amount is its bidder's until the reveal: its commitment is kept from
    the new holder as the markers' are."""
    table = Table(*started(3))
    bid = SealedBid(commitment="c0ffee", secret_amount=3, secret_salt="s")
    sale = Auction(order=(Seat(0), LANNISTER), bids={LANNISTER: bid})
    table.state = replace(table.state, auction=sale)

    handed(table)

    assert table.state.seats[LANNISTER].withheld == frozenset({"c0ffee"})


def test_a_placement_record_of_another_seat_stays_hidden_from_the_new_token() -> None:
    """The boundary is the seat's: another seat's private part was never the seat's."""
    table = lannister_placed()
    handed(table)
    table.act(ballot(("for", "robb-stark"), salt="s"), seat(0))
    stark_placed = next(
        r for r in records(chained(table.events)) if r.type == "BallotPlaced" and r.seat == Seat(0)
    )
    assert not observer(seat(1), table.state).sees_private(stark_placed)
    assert observer(seat(0), table.state).sees_private(stark_placed)


def test_the_audit_refuses_a_hand_over_that_names_another_version() -> None:
    """The version a hand-over names is its own record's: naming an earlier one would show the
    new holder what the seat held before (section 10)."""
    table = lannister_placed()
    handed(table)
    honest = chained(table.events)
    assert audit(records(honest)).ok

    forged = copy.deepcopy(honest)
    line = next(line for line in forged if line["type"] == "SeatHanded")
    line["data"]["at_version"] = 3

    result = audit(rechain(forged))
    assert not result.ok and "names version 3" in (result.reason or "")
