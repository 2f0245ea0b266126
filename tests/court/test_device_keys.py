"""The keys a player's devices sign his moves with (court/model/devices.py, court/decide/devices.py,
court/decide/signed.py): a holder's first key on his token alone, any further key signed by one
he holds; once keyed, every move of his comes signed by one of his keys, each signature taken
once, on a head the log holds, or it is refused with `bad_signature`. Keys are the server's
(section 10); the table's rule that a seat's things belong to its player (R-9.2) is why a
hand-over or a replacement takes them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import (
    Actor,
    DropDeviceKey,
    HandHost,
    HandSeat,
    MarkerChoice,
    Pass,
    PlaceBallot,
    PlaceBid,
    RecordDeath,
    SignedMove,
    StartGame,
)
from court.decide.council_seat import bid_commitment
from court.decide.signed import decide_move
from court.errors import CourtError
from court.events import (
    BallotPlaced,
    BidPlaced,
    DeviceKeyAdded,
    DeviceKeyDropped,
    FactRecorded,
    MoveSigned,
    NobleDied,
    SeatReplaced,
)
from court.ids import NobleId, Seat
from court.log.provenance import Kind, kind_of
from court.model.devices import DeviceKey, DeviceKeys, move_text
from court.sentences import describe
from court.soundness.invariants import violations
from court.state import CourtState
from elections.markers import commitment
from tests.court.chained_logs import north_ballot
from tests.court.given import GAME, HOST, Table, created, joined, seat, started
from tests.court.purchase_moments import three_wardens_two_free_masters
from tests.court.signing import Device
from tests.court.single_records import record_of
from tests.court.table_votes_given import HOST_SEAT, LATER, replace_vote, table

PHONE, LAPTOP, THIEF = Device(1), Device(2), Device(3)


def moved(table: Table, move: SignedMove | object, actor: Actor = HOST, now: float = 0.0) -> tuple:  # type: ignore[type-arg]
    events, _ = decide_move(table.state, move, actor, now)  # type: ignore[arg-type]
    return table.add(*events)


def refused(state: CourtState, move: object, actor: Actor, now: float = 0.0) -> CourtError:
    with pytest.raises(CourtError) as caught:
        decide_move(state, move, actor, now)  # type: ignore[arg-type]
    return caught.value


def keyed(table: Table, device: Device, actor: Actor) -> None:
    """`device` registers the actor's first key, on his token alone."""
    moved(table, device.registers(), actor)


def game() -> Table:
    return Table(*started(3))


def test_a_seats_first_key_needs_its_token_alone_and_then_every_move_is_signed() -> None:
    """Given a started game, when seat 1's phone registers its key unsigned, then the log
    records it for seat 1 with the token as its proof; an unsigned move of seat 1 is refused
    from then on, while seat 2, unkeyed, still moves unsigned."""
    court = game()

    (added,) = moved(court, PHONE.registers(), seat(1))

    assert added == DeviceKeyAdded(
        holder="seat:1", key_id=PHONE.key_id, public_key=PHONE.public_key, proof="token"
    )
    assert court.state.devices.of("seat:1") == (
        DeviceKey(key_id=PHONE.key_id, holder="seat:1", public_key=PHONE.public_key, proof="token"),
    )
    unsigned = refused(
        court.state, RecordDeath(noble=NobleId("x"), kind="battle", cause="c"), seat(1)
    )
    assert unsigned.code == "bad_signature" and "signature" in unsigned.message
    assert refused(court.state, LAPTOP.registers(), seat(1)).code == "bad_signature"
    assert kind_of("DeviceKeyAdded") is Kind.BOOKKEEPING
    said = describe(record_of(added), court.state)
    assert "Player 2" in said and PHONE.key_id[:8] in said and "own link" in said, said


def test_a_signed_move_is_recorded_first_naming_the_records_it_led_to() -> None:
    """Given Lannister keyed at the Warden of the North's ballot, when his phone signs his
    placement, then the signed move is the first record, names the records that follow, holds
    the commitments alone (no kind, no salt), and its nonce is spent."""
    court = north_ballot()
    keyed(court, PHONE, seat(1))
    sealed = commitment("for", "jaime-lannister", "a" * 32)
    committed = ({"commitment": sealed, "candidate": "jaime-lannister"},)
    payload = {"committed": list(committed)}
    signed_ballot = PlaceBallot(
        markers=(MarkerChoice(kind="for", candidate=NobleId("jaime-lannister"), salt="a" * 32),),
        committed=committed,
    )

    events = moved(
        court, PHONE.signs(signed_ballot, GAME, "seat:1", "place_ballot", payload), seat(1)
    )

    first, *rest = events
    assert isinstance(first, MoveSigned) and first.records == len(rest) == 1
    assert (first.holder, first.key_id, first.message) == ("seat:1", PHONE.key_id, "place_ballot")
    assert "kind" not in str(first.payload) and "a" * 32 not in str(first.payload)
    assert first.nonce in court.state.devices.by_id[PHONE.key_id].nonces
    assert isinstance(rest[0], BallotPlaced)
    assert kind_of("MoveSigned") is Kind.BOOKKEEPING


def test_a_signed_move_is_taken_once() -> None:
    """Given seat 1's move signed and taken, when the very same signed move comes again, then
    it is refused: its nonce is spent."""
    court = game()
    keyed(court, PHONE, seat(1))
    end = PHONE.signs(Pass(), GAME, "seat:1", "pass", nonce="replayed-nonce-0001")
    refusal = refused(court.state, end, seat(1))  # not seat 1's turn: refused by the rules
    assert refusal.code != "bad_signature"
    court.add(MoveSigned(**{**_fields(end), "records": 0}))  # as if a move had spent it

    assert refused(court.state, end, seat(1)).code == "bad_signature"


def _fields(move: SignedMove) -> dict:  # type: ignore[type-arg]
    sig = move.signature
    return {
        "holder": "seat:1",
        "key_id": sig.key_id,
        "message": sig.message,
        "payload": sig.payload,
        "version": sig.version,
        "hash": sig.hash,
        "nonce": sig.nonce,
        "signature": sig.signature,
    }


@pytest.mark.parametrize(
    "forged",
    [
        "another key",  # a key of nobody here
        "another payload",  # the payload changed after signing
        "another seat",  # the seat changed after signing
        "another head",  # a head the log does not hold
    ],
)
def test_a_signature_that_cannot_be_believed_is_refused(forged: str) -> None:
    court = game()
    keyed(court, PHONE, seat(1))
    keyed(court, LAPTOP, seat(2))
    command = DropDeviceKey(key_id=PHONE.key_id)
    move = PHONE.signs(command, GAME, "seat:1", "drop_device_key", {"key_id": PHONE.key_id})
    actor = seat(1)
    if forged == "another key":
        move = THIEF.signs(command, GAME, "seat:1", "drop_device_key", {"key_id": PHONE.key_id})
    elif forged == "another payload":
        move = replace(move, signature=replace(move.signature, payload={"key_id": "0" * 16}))
    elif forged == "another seat":
        actor = seat(2)
    else:
        move = replace(move, seen=False)

    assert refused(court.state, move, actor).code == "bad_signature"


def test_a_further_key_comes_signed_by_a_key_the_seat_holds_and_the_last_is_never_dropped() -> None:
    """Given seat 1 keyed on its phone, when the phone signs the laptop's key, then the laptop's
    key is recorded with the phone's key as its proof; the laptop may drop the phone's key, not
    then its own, the last; a key dropped never comes back."""
    court = game()
    keyed(court, PHONE, seat(1))

    events = moved(
        court, PHONE.signs(LAPTOP.registers(), GAME, "seat:1", "add_device_key"), seat(1)
    )
    assert events[1] == DeviceKeyAdded(
        holder="seat:1", key_id=LAPTOP.key_id, public_key=LAPTOP.public_key, proof=PHONE.key_id
    )
    drop = DropDeviceKey(key_id=PHONE.key_id)
    dropped = moved(court, LAPTOP.signs(drop, GAME, "seat:1", "drop_device_key"), seat(1))
    assert dropped[1] == DeviceKeyDropped(holder="seat:1", key_id=PHONE.key_id, reason="dropped")

    last = LAPTOP.signs(DropDeviceKey(key_id=LAPTOP.key_id), GAME, "seat:1", "drop_device_key")
    assert refused(court.state, last, seat(1)).code == "last_key"
    back = LAPTOP.signs(PHONE.registers(), GAME, "seat:1", "add_device_key")
    assert refused(court.state, back, seat(1)).code == "key_reused"
    old = PHONE.signs(Pass(), GAME, "seat:1", "pass")
    assert refused(court.state, old, seat(1)).code == "bad_signature"


def test_a_hand_over_or_a_replacement_takes_the_old_players_keys() -> None:
    """R-9.2: given seats 1 and 2 keyed, when the host hands seat 1 to Eve and the table
    replaces seat 2 (Eve's seat, unclaimed yet, counts in no vote: the host's is the majority),
    then neither seat holds a key: the new players register theirs with their own links, and
    the old players' devices sign nothing for the seats."""
    court = table()
    keyed(court, PHONE, seat(1))
    keyed(court, LAPTOP, seat(2))

    court.act(HandSeat(seat=Seat(1), token_sha256="e" * 64, player_name="Eve"), HOST_SEAT)
    assert not court.state.devices.keyed("seat:1") and court.state.devices.keyed("seat:2")
    replaced = court.act(replace_vote(2), HOST_SEAT, LATER)

    assert any(isinstance(e, SeatReplaced) for e in replaced)
    assert court.state.devices.by_id == {}
    assert court.state.devices.ever == {PHONE.key_id, LAPTOP.key_id}
    keyed(court, THIEF, seat(1))
    assert court.state.devices.of("seat:1")[0].proof == "token"


def test_the_host_without_a_seat_and_the_game_master_sign_as_their_roles() -> None:
    """Given a game with a game master and a host who holds no seat, when each registers a
    key, then each signs for his role ("host", "master"); a fact either records unsigned is
    refused, and once the host takes a seat, his seatless role's key goes."""
    mastered = replace(created(3), game_master_name="Maester", game_master_token_sha256="m" * 64)
    court = Table(mastered, joined(1), joined(2))
    master = Actor(master=True)
    keyed(court, PHONE, HOST)
    keyed(court, LAPTOP, master)
    assert {k.holder for k in court.state.devices.by_id.values()} == {"host", "master"}

    assert refused(court.state, StartGame(), HOST).code == "bad_signature"
    move = PHONE.signs(StartGame(), GAME, "host", "start")
    assert refused(court.state, move, HOST).code == "seats_not_filled"

    court.add(joined(0, host=True))
    assert {k.holder for k in court.state.devices.by_id.values()} == {"master"}


def test_a_host_seat_signs_as_its_seat_and_keeps_its_keys_when_the_role_moves() -> None:
    court = table()
    keyed(court, PHONE, HOST_SEAT)
    assert court.state.devices.of("seat:0")

    moved(
        court,
        PHONE.signs(HandHost(seat=Seat(1)), GAME, "seat:0", "hand_host", {"seat": 1}),
        HOST_SEAT,
    )

    assert court.state.devices.of("seat:0")


def test_a_key_for_nobody_or_under_another_id_breaks_the_court() -> None:
    court = game()
    keyed(court, PHONE, seat(1))
    key = court.state.devices.by_id[PHONE.key_id]
    nobody = DeviceKeys(
        by_id={key.key_id: replace(key, holder="seat:5")}, ever=frozenset({key.key_id})
    )
    renamed = DeviceKeys(by_id={"0" * 16: key}, ever=frozenset({"0" * 16}))

    for devices in (nobody, renamed):
        found = violations(replace(court.state, devices=devices))
        assert any("device key" in problem for problem in found), found


def test_the_signed_text_is_one_line_per_part_with_the_payload_in_canonical_json() -> None:
    text = move_text("g1", "seat:2", "place_bid", {"commitment": "c", "a": [1]}, 41, "h" * 64, "n")
    assert (
        text
        == (
            'small-council move\ng1\nseat:2\nplace_bid\n{"a":[1],"commitment":"c"}\n41\n'
            + "h" * 64
            + "\nn"
        ).encode()
    )


def test_a_fact_recorded_by_a_keyed_host_names_whose_device_signed_it() -> None:
    """Section 9: given the host's seat keyed, when his device signs a recorded death, then the
    signed move comes first and names his seat, then the note of who recorded it."""
    court = table()
    keyed(court, PHONE, HOST_SEAT)
    death = RecordDeath(noble=NobleId("robb-stark"), kind="battle", cause="the Twins")
    payload = {"noble": "robb-stark", "kind": "battle", "cause": "the Twins"}

    events = moved(court, PHONE.signs(death, GAME, "seat:0", "record_death", payload), HOST_SEAT)

    assert isinstance(events[0], MoveSigned) and events[0].holder == "seat:0"
    assert isinstance(events[1], FactRecorded) and isinstance(events[2], NobleDied)
    said = describe(record_of(events[0]), court.state)
    assert "Player 1" in said and "record_death" in said, said


def test_markers_or_a_bid_that_do_not_open_what_the_device_signed_are_refused() -> None:
    """R-7.1 step 3, R-4.6: a signing device sends its markers' salts and the commitments it
    signed; markers that open other commitments, or a bid that opens another, are refused."""
    court = north_ballot()
    other = ({"commitment": commitment("for", "robb-stark", "a" * 32), "candidate": "robb-stark"},)
    ballot = PlaceBallot(
        markers=(MarkerChoice(kind="for", candidate=NobleId("jaime-lannister"), salt="a" * 32),),
        committed=other,
    )
    assert refused(court.state, ballot, seat(1)).code == "bad_commitment"

    state = _auction()
    bid = PlaceBid(amount=2, salt="b" * 32, commitment="0" * 64)
    assert refused(state, bid, seat(_bidder(state))).code == "bad_commitment"
    fair = PlaceBid(amount=2, salt="b" * 32, commitment=bid_commitment(2, "b" * 32))
    assert isinstance(decide_move(state, fair, seat(_bidder(state)))[0][0], BidPlaced)


def _auction() -> CourtState:
    return three_wardens_two_free_masters()


def _bidder(state: CourtState) -> int:
    assert state.auction is not None
    return state.auction.waiting[0]
