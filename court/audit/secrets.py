"""The deep audit's checks of what was sealed: commitments, tallies, sales and dice."""

from __future__ import annotations

from typing import Any

from court.audit.failed import Failed
from court.decide.council_seat import bid_commitment, sale_result, wardens_off_council
from court.events import (
    BallotPlaced,
    BallotsRevealed,
    BidPlaced,
    BidsRevealed,
    DieRolled,
    Event,
    GameCreated,
    MarkerSecret,
    OpenedMarker,
)
from court.ids import Seat
from court.model import dice
from court.state import CourtState
from elections.markers import MarkerKind, commitment
from elections.tally import Revealed, count


def secrets(before: CourtState, event: Event) -> int:
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
    amount, salt = event.secret.amount, event.secret.salt
    if type(amount) is not int or amount < 0 or not isinstance(salt, str):
        raise Failed("bids", "a sealed bid is not a whole number of Gold Dragons")
    if bid_commitment(amount, salt) != event.commitment:
        raise Failed("commitments", "a sealed bid does not open its own commitment")


def _placement(before: CourtState, event: BallotPlaced) -> None:
    election = before.election
    if election is None:
        raise Failed("commitments", "markers were placed outside a ballot")
    sealed = before.ruleset.profile.variants.sealed_ballots
    commitments = [m.commitment for m in event.markers]
    if len(commitments) > 2 or len(set(commitments)) != len(commitments):
        raise Failed("commitments", "a player places at most two distinct markers (R-7.1)")
    if any((m.candidate is None) != sealed for m in event.markers):
        raise Failed("commitments", "where a marker lies is shown exactly when ballots are open")
    if event.secrets:
        if len(event.secrets) != len(event.markers):
            raise Failed("commitments", "the placement's secrets do not match its markers")
        for public, secret in zip(event.markers, event.secrets, strict=True):
            _opens(public.commitment, secret, public.candidate, "placed")


def _opens(expected: str, marker: MarkerSecret | OpenedMarker, candidate: Any, when: str) -> None:
    kind, shown, salt = marker.kind, marker.candidate, marker.salt
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
    shown = {(m.seat, m.commitment): m for m in event.markers}
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
        ) != (marker.kind, marker.candidate, marker.salt):
            raise Failed("commitments", "the reveal contradicts the placing player's secret")
        revealed.append(
            Revealed(voter=str(key[0]), candidate=marker.candidate, kind=MarkerKind(marker.kind))
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
    shown = {b.seat: b for b in event.bids}
    if set(shown) != set(auction.bids) or len(shown) != len(event.bids):
        raise Failed("commitments", "the reveal does not open exactly the bids placed")
    valid: dict[Seat, int] = {}
    for seat, placed in auction.bids.items():
        bid = shown[seat]
        amount, salt = bid.amount, bid.salt
        if type(amount) is not int or amount < 0 or not isinstance(salt, str):
            raise Failed("bids", "a revealed bid is not a whole number of Gold Dragons")
        if bid.commitment != placed.commitment or bid_commitment(amount, salt) != (
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
        if bid.void is not void:
            raise Failed("bids", "a bid is marked void against the treasury at the reveal")
        seated = bool(wardens_off_council(before, before.seats[seat].house))
        if bid.no_warden is not None and bid.no_warden is seated:
            raise Failed("bids", "a bid is marked as having no Warden to seat against the court")
        if not void and amount > 0:
            valid[seat] = amount
    # A reveal recorded before bids without a Warden were dropped marks none of them.
    dropping = all(bid.no_warden is not None for bid in event.bids)
    if (event.winner, event.reason) != sale_result(before, valid, dropping):
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
