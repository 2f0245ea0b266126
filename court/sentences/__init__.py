"""One readable sentence per log record, for the history ("Round 3, Warden of the North:
Robb Stark elected with 5 votes")."""

from __future__ import annotations

from typing import Any

from court.chain import Record
from court.ids import HouseId, NobleId, Seat, TitleId
from court.sentences.decrees import DECREE_EVENTS, decree_sentence
from court.state import CourtState


def _house_name(state: CourtState, house: str) -> str:
    card = state.rules.house(HouseId(house)) if state.rules else None
    return card.name if card else house


def _title(state: CourtState, title: str) -> str:
    found = state.rules.title(TitleId(title)) if state.rules else None
    return found.name if found else title


def _noble(state: CourtState, noble: str) -> str:
    found = state.nobles.get(NobleId(noble))
    return found.name if found else noble


def _village(state: CourtState, village: str) -> str:
    rules = state.rules
    found = next((v for v in rules.villages if v.id == village), None) if rules else None
    return found.name if found else village


def _revealed_sentence(state: CourtState, d: dict[str, Any]) -> str:
    title = _title(state, d["title"])
    votes = dict(d["votes"])
    held_in = d.get("round") or state.round  # logs written before the field: the present one
    if d["winner"] is None:
        reasons = {
            "tie": "a tie at the top",
            "no_votes": "no candidate had a vote",
            "below_minimum": "nobody reached the minimum",
            "no_candidate": "there was no candidate",
        }
        why = reasons.get(d["reason"], d["reason"])
        return f"Round {held_in}, {title}: nobody elected ({why})."
    tie = ", put forward first of those tied at the top" if d["reason"] == "tie_broken" else ""
    return (
        f"Round {held_in}, {title}: {_noble(state, d['winner'])} elected with "
        f"{votes[d['winner']]} vote{'s' if votes[d['winner']] != 1 else ''}{tie}."
    )


def _player(state: CourtState, seat: int) -> str:
    info = state.seats.get(Seat(seat))
    return f"{info.player_name} ({_house_name(state, info.house)})" if info else "A player"


def _gold(amount: int) -> str:
    return f"{amount} Gold Dragon{'s' if amount != 1 else ''}"


def _purchase_sentence(state: CourtState, kind: str, d: dict[str, Any]) -> str:
    """Phase 4 purchases and ransom (R-3.6, R-4.6, R-8.2); no bid amount before the reveal."""
    match kind:
        case "GoldPaid":
            to = _house_name(state, d["to_house"]) if d["to_house"] else "the bank"
            return (
                f"{_house_name(state, d['house'])} paid {_gold(d['amount'])} to {to} "
                f"({d['cause']})."
            )
        case "SeptBuilt":
            village = _village(state, d["village"])
            return f"{_house_name(state, d['house'])} built a Sept at {village}."
        case "AuctionOpened":
            who = ", ".join(_player(state, s) for s in d["order"])
            return f"The fourth Small Council seat is for sale; sealed bids from {who}."
        case "AuctionSkipped":
            return f"No sale of the fourth Small Council seat this round: {d['reason']}."
        case "BidPlaced":
            return f"{_player(state, d['seat'])} placed a sealed bid."
        case "BidPassed":
            return f"{_player(state, d['seat'])} passed in the sale of the council seat."
        case "BidsTimedOut":
            who = ", ".join(_player(state, s) for s in d["passed"]) or "nobody"
            return f"The clock ran out for the sale (R-4.3); timed out, counted as passing: {who}."
        case "BidsRevealed":
            shown = ", ".join(
                f"{_player(state, b['seat'])} {b['amount']}" + (" (void)" if b["void"] else "")
                for b in d["bids"]
            )
            bids = f"Bids revealed: {shown or 'none'}"
            if d["winner"] is not None:
                top = max(b["amount"] for b in d["bids"] if b["seat"] == d["winner"])
                return (
                    f"{bids}. {_player(state, d['winner'])} buys the fourth Small Council seat "
                    f"for {_gold(top)}."
                )
            reasons = {
                "tie": "a tie for the highest bid",
                "no_bid": "no positive bid",
                "no_warden": "the highest bidder has no Warden left to seat",
                "no_free_master": "no Master title is free any more",
            }
            return f"{bids}. Nothing is sold: {reasons.get(d['reason'], d['reason'])}."
        case "CouncilSeatTaken":
            return (
                f"{_player(state, d['seat'])} seats {_noble(state, d['noble'])} on the Small "
                f"Council as {_title(state, d['title'])}."
            )
        case "CouncilSeatLapsed":
            return f"{_player(state, d['seat'])} loses the council seat bought: {d['reason']}."
        case "CouncilSeatVacated":
            return f"The fourth Small Council seat is free again: {d['reason']} (R-4.6)."
        case "PurchaseTurnsOpened":
            who = ", ".join(_player(state, s) for s in d["order"]) or "nobody"
            return f"Purchases at court, in turn order: {who} (R-4.1)."
        case "PurchasesDone" if d.get("reason"):
            return f"{_player(state, d['seat'])} is done with purchases: {d['reason']}."
        case "PurchasesDone":
            return f"{_player(state, d['seat'])} is done with purchases."
        case "PurchasesTimedOut":
            who = ", ".join(_player(state, s) for s in d["seats"]) or "nobody"
            return f"The clock ran out for the purchases (R-4.3); timed out: {who}."
        case "FiefGrantedByKing":
            return (
                f"The King granted the {_title(state, d['title'])} title to "
                f"{_noble(state, d['noble'])} (R-3.6)."
            )
        case "RansomOffered":
            parts = [_gold(d["gold"])] if d["gold"] else []
            parts += [_noble(state, n) for n in d["captives"]]
            return (
                f"{_player(state, d['seat'])} offers {' and '.join(parts)} to "
                f"{_player(state, d['to_seat'])} as ransom for {_noble(state, d['captive'])} "
                f"(offer {d['offer']})."
            )
        case "RansomPaid":
            parts = [_gold(d["gold"])] if d["gold"] else []
            parts += [_noble(state, n) for n in d["captives"]]
            return (
                f"Ransom paid: {_noble(state, d['captive'])} goes home to "
                f"{_house_name(state, d['house'])}; {_house_name(state, d['to_house'])} "
                f"receives {' and '.join(parts)}."
            )
        case "RansomRefused":
            return f"Ransom offer {d['offer']} was refused."
        case _:
            return f"Ransom offer {d['offer']} was withdrawn."


PURCHASE_EVENTS = frozenset(
    {
        "GoldPaid",
        "SeptBuilt",
        "AuctionOpened",
        "AuctionSkipped",
        "BidPlaced",
        "BidPassed",
        "BidsTimedOut",
        "BidsRevealed",
        "CouncilSeatTaken",
        "CouncilSeatLapsed",
        "CouncilSeatVacated",
        "PurchaseTurnsOpened",
        "PurchasesDone",
        "PurchasesTimedOut",
        "FiefGrantedByKing",
        "RansomOffered",
        "RansomPaid",
        "RansomRefused",
        "RansomWithdrawn",
    }
)


def describe(record: Record, state: CourtState) -> str:
    """The record as one sentence a player can read in the history."""
    d = record.data
    match record.type:
        case "GameCreated":
            return f"{d['host_name']} created a game for {d['players']} players."
        case "SeatJoined":
            return f"{d['player_name']} joined as {_house_name(state, d['house'])}."
        case "SeatLeft":
            return f"{d['player_name']} left the table, freeing {_house_name(state, d['house'])}."
        case "GameStarted":
            return f"The game started; {_player(state, d['first_player'])} is First Player."
        case "RoundStarted":
            return f"Round {d['round']} began; {_player(state, d['first_player'])} is First Player."
        case "PhaseStarted":
            return f"Round {d['round']}: the {d['phase'].replace('_', ' ')} phase began."
        case "VillageControlChanged":
            holder = _house_name(state, d["house"]) if d["house"] else "nobody"
            return f"{_village(state, d['village'])} is now held by {holder} ({d['cause']})."
        case "IncomePaid":
            paid = ", ".join(f"{_house_name(state, h)} {g} GD" for h, g in d["amounts"])
            return f"Round {d['round']} income: {paid}."
        case "ElectionSkipped":
            return f"{_title(state, d['title'])}: no election, because {d['reason']}."
        case "ElectionOpened":
            return f"{_title(state, d['title'])}: candidacy is open."
        case "CandidateStood":
            return f"{_player(state, d['seat'])} put forward {_noble(state, d['noble'])}."
        case "CandidacyPassed":
            return f"{_player(state, d['seat'])} put forward nobody."
        case "BallotOpened":
            return f"Ballots are open; {len(d['candidates'])} candidate(s) stand."
        case "BallotPlaced":
            n = len(d["markers"])
            what = f"{n} marker{'s' if n != 1 else ''} face down" if n else "no marker"
            return f"{_player(state, d['seat'])} placed {what}."
        case "StepTimedOut":
            who = ", ".join(_player(state, s) for s in d["passed"]) or "nobody"
            return f"The clock ran out (R-4.3); timed out, counted as passing: {who}."
        case "CandidateWithdrawn":
            return f"{d['reason']}."
        case "TitleChoiceTimedOut":
            what = (
                "the title is taken"
                if d["kind"] == "acceptance"
                else "the title one too many returns to the board"
            )
            return (
                f"The clock ran out for {_player(state, d['seat'])}'s choice about the "
                f"{_title(state, d['title'])} title (R-4.3): {what}."
            )
        case "BallotsRevealed":
            return _revealed_sentence(state, d)
        case "TitleRefused":
            return f"{_noble(state, d['noble'])} refused the {_title(state, d['title'])} title."
        case "TitleGranted":
            return f"{_noble(state, d['noble'])} became {_title(state, d['title'])}."
        case "TitleReturned":
            return (
                f"{_noble(state, d['noble'])} returned the {_title(state, d['title'])} title "
                f"to the board: {d['reason']}."
            )
        case "TitlePassed":
            return (
                f"{_noble(state, d['noble'])} passed the {_title(state, d['title'])} title "
                f"to {_noble(state, d['to'])}."
            )
        case "TitleSlotsExceeded":
            return (
                f"{_noble(state, d['noble'])} has no free {d['category']} slot for the "
                f"{_title(state, d['title'])} title; {_player(state, d['seat'])} must pass or "
                "return one (R-3.2)."
            )
        case "GoldAdjusted":
            verb = "gained" if d["amount"] > 0 else "lost"
            return (
                f"{_house_name(state, d['house'])} {verb} {abs(d['amount'])} Gold Dragons "
                f"({d['cause']})."
            )
        case "FactRecorded":
            role = "the game master" if d["by"] == "game_master" else "the host"
            return f"{d['name']}, {role}, recorded a fact: {d['fact'].replace('_', ' ')}."
        # Recorded facts of a Noble's life and Court Events (section 9).
        case "NobleCaptured":
            by = f", by {_noble(state, d['by'])}" if d["by"] else ""
            return (
                f"{_noble(state, d['noble'])} was taken captive by "
                f"{_house_name(state, d['captor'])}{by} ({d['cause']})."
            )
        case "NobleFreed":
            return f"{_noble(state, d['noble'])} is free again ({d['cause']})."
        case "NobleDied":
            return f"{_noble(state, d['noble'])} died ({d['cause']})."
        case "NobleAdded":
            return (
                f"{d['noble']['name']} came into play for {_house_name(state, d['house'])} "
                f"({d['cause']})."
            )
        case "AttributeGained" if d["attribute"] == "prince_of_westeros":
            return f"{_noble(state, d['noble'])} is the Heir, prince of Westeros ({d['cause']})."
        case "AttributeGained":
            what = d["attribute"].replace("_", " ")
            return f"{_noble(state, d['noble'])} is now {what} ({d['cause']})."
        case "AllianceEnded":
            allies = " and ".join(_player(state, s) for s in d["seats"])
            return f"The alliance of {allies} ended: {d['reason']}."
        case kind if kind in PURCHASE_EVENTS:
            return _purchase_sentence(state, kind, d)
        case kind if kind in DECREE_EVENTS:
            return decree_sentence(kind, d, state)
        case _:
            return f"{record.type} (version {record.version})."
