"""Deep verification of a game's log: what `/verify`, `flask court verify` and import check.

Beyond the hash chain (court/chain.py), record by record:
- record: the id, type, schema version, time and seat are well formed (the API's patterns);
  a private part only where the event type has one, with exactly its fields; an event whose
  private part belongs to a seat (a ballot, a bid, a seat token) names that seat;
- names: ids and names pass the checks the API applies when they are typed (court/text.py),
  and no text holds control characters;
- fold: the log folds into a court without error;
- invariants: every invariant of court/invariants.py holds at every version;
- commitments: every marker and sealed bid revealed opens the commitment published when it
  was placed, on the candidate shown then; secrets present in the log agree with both;
- tally: every reveal's votes, winner and reason recompute from the opened markers and the
  votes recorded when the ballot opened (R-7.1, R-7.2); every sale's result from the bids;
- dice: every roll recomputes from the game's seed (whose SHA-256 the first event
  published), when the seed is in the log: an export made before the end withholds it.

The first failing check is reported with its record and version; checks that could not be
made are listed as notes.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from court import codec, dice
from court.chain import GENESIS, Record, Verification, chain_problem
from court.decide.council_seat import bid_commitment, sale_result
from court.errors import CourtError
from court.events import (
    BallotPlaced,
    BallotsRevealed,
    BidPlaced,
    BidsRevealed,
    DieRolled,
    Event,
    GameCreated,
    NobleAdded,
    SeatJoined,
)
from court.evolve import evolve, initial
from court.ids import GameId, Seat
from court.invariants import violations
from court.state import CourtState
from court.text import NOBLE_ID, clean_name, id_problem, unprintable
from elections.markers import MarkerKind, commitment
from elections.tally import Revealed, count

# The log's times, as server.ports.iso_time writes them.
RECORDED_AT = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.\d{6}Z")
TEXT_LIMIT = 2000  # the longest sentence the engine writes into an event is far shorter


class Failed(Exception):
    def __init__(self, check: str, reason: str) -> None:
        super().__init__(reason)
        self.check = check
        self.reason = reason


def audit(
    records: Iterable[Record],
    upcasters: Mapping[codec.UpcasterKey, codec.Upcaster] = codec.UPCASTERS,
) -> Verification:
    """Every check above, record by record; the first failure, or ok with notes."""
    prev, game_id = GENESIS, None
    state: CourtState | None = None
    rolls_unchecked = 0
    index = -1
    record: Record | None = None
    try:
        for index, record in enumerate(records):
            problem = chain_problem(record, index, game_id, prev)
            if problem:
                raise Failed("chain", problem)
            try:
                state, unchecked = _checked(record, state, upcasters)
            except Failed:
                raise
            except Exception as exc:  # a forged value of a type no check expected
                raise Failed("record", f"the record cannot be read ({exc!r:.120})") from None
            rolls_unchecked += unchecked
            game_id, prev = record.game_id, record.hash
    except Failed as exc:
        assert record is not None
        return Verification(
            ok=False,
            records=index,
            head=prev,
            bad_index=index,
            bad_version=record.version,
            reason=exc.reason,
            check=exc.check,
        )
    notes: tuple[str, ...] = ()
    if rolls_unchecked:
        notes = (
            f"{rolls_unchecked} die roll(s) not checked: the dice seed is secret until the game "
            "ends, and this log withholds it",
        )
    return Verification(ok=True, records=index + 1, head=prev, notes=notes)


def _checked(
    record: Record,
    state: CourtState | None,
    upcasters: Mapping[codec.UpcasterKey, codec.Upcaster],
) -> tuple[CourtState, int]:
    """Every check of one record; the state it leads to and its die rolls left unchecked."""
    event = _readable(record, upcasters)
    before = state if state is not None else initial(GameId(record.game_id))
    _names(record, event)
    unchecked = _secrets(before, event)
    try:
        after = evolve(before, event)
    except Exception as exc:  # evolve trusts its input; a forged log can break it
        raise Failed("fold", f"the log cannot be folded here ({exc!r})") from None
    _seat(record, event, after)
    broken = violations(after)
    if broken:
        raise Failed("invariants", broken[0])
    return after, unchecked


def _readable(record: Record, upcasters: Mapping[codec.UpcasterKey, codec.Upcaster]) -> Event:
    """The record's fields are well formed and its event decodes."""
    problem = id_problem(record.game_id)
    if problem:
        raise Failed("record", f"the game id: {problem}")
    if not isinstance(record.type, str) or not isinstance(record.schema_version, int):
        raise Failed("record", "the type and schema version are a name and a whole number")
    if not _utc_time(record.recorded_at):
        raise Failed("record", f"recorded_at {record.recorded_at!r:.40} is not a UTC time")
    if record.seat is not None and (type(record.seat) is not int or record.seat < 0):
        raise Failed("record", f"seat {record.seat!r:.40} is not a seat number")
    if not isinstance(record.data, dict) or not isinstance(record.private, dict | None):
        raise Failed("record", "the public and private parts are JSON objects")
    try:
        event = codec.decode(
            record.type, record.schema_version, record.data, record.private, upcasters
        )
    except CourtError as exc:
        raise Failed("record", exc.message) from None
    private_fields = type(event).PRIVATE
    if not private_fields and (record.private is not None or record.private_sha256 != ""):
        raise Failed("record", f"a {record.type} record has no private part, but this one has")
    if private_fields and not record.private_sha256:
        raise Failed("record", f"a {record.type} record's private part has no digest")
    if record.private is not None and set(record.private) != private_fields:
        raise Failed("record", f"the private part of a {record.type} holds other fields")
    return event


def _utc_time(text: object) -> bool:
    """A time as the log writes it (2026-11-24T10:00:00.000000Z) that names a real moment."""
    match = RECORDED_AT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return False
    year, month, day, hour, minute, second = (int(g) for g in match.groups())
    return (
        year >= 1970
        and 1 <= month <= 12
        and 1 <= day <= calendar.monthrange(year, month)[1]
        and hour < 24
        and minute < 60
        and second < 60
    )


def _names(record: Record, event: Event) -> None:
    """Ids and names as the API takes them; no text with control characters."""
    problem = _text_problem(record.data)
    if problem:
        raise Failed("names", problem)
    names: Sequence[object]  # as the log holds them: a forged one may be no text at all
    if isinstance(event, GameCreated):
        if event.game_id != record.game_id:
            raise Failed("names", "the game created is not the game of the log")
        names = [event.host_name] + ([event.game_master_name] if event.game_master_name else [])
    elif isinstance(event, SeatJoined):
        names = [event.player_name]
    elif isinstance(event, NobleAdded):
        problem = id_problem(event.noble.get("id"), NOBLE_ID)
        if problem:
            raise Failed("names", f"the new Noble's id: {problem}")
        names = [event.noble.get("name")]
    else:
        return
    for name in names:
        try:
            if not isinstance(name, str) or clean_name(name) != name:
                raise Failed("names", f"the name {name!r:.60} is not one the court takes")
        except CourtError as exc:
            raise Failed("names", f"the name {name!r:.60}: {exc.message}") from None


def _text_problem(value: Any) -> str | None:
    if isinstance(value, str):
        if len(value) > TEXT_LIMIT:
            return f"a text of {len(value)} characters is longer than any the court writes"
        problem = unprintable(value)
        return f"a text cannot be shown as written: {problem}" if problem else None
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, list | tuple):
        return next((p for v in value if (p := _text_problem(v))), None)
    return None


def _seat(record: Record, event: Event, state: CourtState) -> None:
    """The acting seat is a seat of this game; a private part goes with the seat it belongs
    to, so the log cannot be edited to show one player's secret to another."""
    if isinstance(event, GameCreated) and record.seat is not None:
        raise Failed("record", "a game is created by its host, before any seat")
    if event.OWNER is not None and record.seat != getattr(event, event.OWNER):
        raise Failed(
            "record",
            f"the {record.type} of seat {getattr(event, event.OWNER)} is recorded for seat "
            f"{record.seat}: its private part would be shown to the wrong player",
        )
    if record.seat is not None and record.seat >= state.joins:
        raise Failed("record", f"seat {record.seat} was never taken in this game")


def _secrets(before: CourtState, event: Event) -> int:
    """Commitments, tallies, bids and dice; returns 1 for a roll whose seed is withheld."""
    match event:
        case BallotPlaced():
            _placement(before, event)
        case BallotsRevealed():
            _reveal(before, event)
        case BidPlaced():
            _sealed_bid(event)
        case BidsRevealed():
            _bids(before, event)
        case DieRolled():
            return _roll(before, event)
        case GameCreated() if event.dice_seed is not None:
            if dice.commitment(event.dice_seed) != event.dice_seed_sha256:
                raise Failed("dice", "the dice seed does not match its published SHA-256")
    return 0


def _sealed_bid(event: BidPlaced) -> None:
    """R-4.6: a bid's secret, where the log holds it, is a whole number of Gold Dragons and
    a salt that open the bid's commitment."""
    if not event.secret:
        return
    amount, salt = event.secret.get("amount"), event.secret.get("salt")
    if type(amount) is not int or amount < 0 or not isinstance(salt, str):
        raise Failed("bids", "a sealed bid is not a whole number of Gold Dragons")
    if bid_commitment(amount, salt) != event.commitment:
        raise Failed("commitments", "a sealed bid does not open its own commitment")


def _placement(before: CourtState, event: BallotPlaced) -> None:
    election = before.election
    if election is None:
        raise Failed("commitments", "markers were placed outside a ballot")
    sealed = before.ruleset.profile.variants.sealed_ballots
    commitments = [m.get("commitment") for m in event.markers]
    if len(commitments) > 2 or len(set(commitments)) != len(commitments):
        raise Failed("commitments", "a player places at most two distinct markers (R-7.1)")
    if any((m.get("candidate") is None) != sealed for m in event.markers):
        raise Failed("commitments", "where a marker lies is shown exactly when ballots are open")
    if event.secrets:
        if len(event.secrets) != len(event.markers):
            raise Failed("commitments", "the placement's secrets do not match its markers")
        for public, secret in zip(event.markers, event.secrets, strict=True):
            _opens(public["commitment"], secret, public.get("candidate"), "placed")


def _opens(expected: str, marker: Mapping[str, Any], candidate: Any, when: str) -> None:
    kind, shown, salt = marker.get("kind"), marker.get("candidate"), marker.get("salt")
    if kind not in tuple(MarkerKind) or not isinstance(shown, str) or not isinstance(salt, str):
        raise Failed("commitments", f"a marker {when} is not a FOR or DECOY on a candidate")
    if commitment(kind, shown, salt) != expected:
        raise Failed(
            "commitments",
            f"a marker {when} does not open the commitment published when it was placed "
            f"({expected[:12]}…)",
        )
    if candidate is not None and candidate != shown:
        raise Failed("commitments", "a marker opens on another candidate than it was placed on")


def _reveal(before: CourtState, event: BallotsRevealed) -> None:
    """R-7.1 steps 4-5: every marker placed is opened, and the count follows from them."""
    election = before.election
    if election is None or election.id != event.election or election.title != event.title:
        raise Failed("tally", "a reveal without its ballot")
    placed = {
        (seat, m.commitment): m for seat, markers in election.placements.items() for m in markers
    }
    shown = {(m.get("seat"), m.get("commitment")): m for m in event.markers}
    if set(placed) != set(shown) or len(shown) != len(event.markers):
        raise Failed("commitments", "the reveal does not open exactly the markers placed")
    revealed = []
    for key, at_placement in placed.items():
        marker = shown[key]
        _opens(key[1], marker, at_placement.candidate, "revealed")
        if at_placement.secret_kind is not None and (
            at_placement.secret_kind,
            at_placement.secret_candidate,
            at_placement.secret_salt,
        ) != (marker["kind"], marker["candidate"], marker["salt"]):
            raise Failed("commitments", "the reveal contradicts the placing player's secret")
        revealed.append(
            Revealed(
                voter=str(key[0]), candidate=marker["candidate"], kind=MarkerKind(marker["kind"])
            )
        )
    weights = {str(seat): votes for seat, votes in election.weights.items()}
    ties = None if before.ruleset.profile.elections.tie_elects_nobody else election.standing
    tally = count(weights, revealed, election.standing, election.minimum, tie_break=ties)
    recorded = {c.noble: c.votes for c in event.votes}
    if (recorded, event.winner, event.reason) != (tally.votes, tally.winner, tally.reason):
        raise Failed(
            "tally",
            f"the reveal records {recorded} and winner {event.winner}; the markers "
            f"and recorded votes give {tally.votes} and winner {tally.winner}",
        )


def _bids(before: CourtState, event: BidsRevealed) -> None:
    """R-4.6: every sealed bid opens its commitment, and the sale's result follows."""
    auction = before.auction
    if auction is None or auction.winner is not None:
        raise Failed("bids", "a reveal of bids without a sale")
    shown = {b.get("seat"): b for b in event.bids}
    if set(shown) != set(auction.bids) or len(shown) != len(event.bids):
        raise Failed("commitments", "the reveal does not open exactly the bids placed")
    valid: dict[Seat, int] = {}
    for seat, placed in auction.bids.items():
        bid = shown[seat]
        amount, salt = bid.get("amount"), bid.get("salt")
        if type(amount) is not int or amount < 0 or not isinstance(salt, str):
            raise Failed("bids", "a revealed bid is not a whole number of Gold Dragons")
        if bid.get("commitment") != placed.commitment or bid_commitment(amount, salt) != (
            placed.commitment
        ):
            raise Failed(
                "commitments", "a revealed bid does not open the commitment of its placement"
            )
        if placed.secret_amount is not None and (placed.secret_amount, placed.secret_salt) != (
            amount,
            salt,
        ):
            raise Failed("commitments", "a revealed bid contradicts the bidder's secret")
        void = amount > before.treasury[before.seats[seat].house]
        if bid.get("void") is not void:
            raise Failed("bids", "a bid is marked void against the treasury at the reveal")
        if not void and amount > 0:
            valid[seat] = amount
    if (event.winner, event.reason) != sale_result(before, valid):
        raise Failed("bids", "the sale's result does not follow from the bids revealed")


def _roll(before: CourtState, event: DieRolled) -> int:
    if event.number != before.rolls:
        raise Failed("dice", f"roll {event.number} comes where roll {before.rolls} was due")
    if before.dice_seed is None:
        return 1
    expected = dice.roll_d6(before.dice_seed, event.number)
    if event.value != expected:
        raise Failed("dice", f"roll {event.number} shows {event.value}; the seed gives {expected}")
    return 0
