"""What each viewer may see: the court and the log rendered for a seat, the host or a spectator.

Raw events never leave the server; these functions decide what does. A private
part is shown to the seat that owns it, and to everyone once the game has ended.
"""

from __future__ import annotations

from typing import Any

from court.chain import Record
from court.commands import Actor
from court.purchase_views import auction_view, offers_view
from court.state import CourtState, Election, GameStatus, Noble, PendingTitle


def private_visible(record: Record, viewer: Actor, ended: bool) -> bool:
    return ended or (viewer.seat is not None and record.seat == viewer.seat)


def record_view(record: Record, viewer: Actor, state: CourtState) -> dict[str, Any]:
    """One log record as the viewer may see it, with a readable sentence."""
    ended = state.status is GameStatus.ENDED
    out = record.to_json()
    if not private_visible(record, viewer, ended):
        out["private"] = None
    out["text"] = describe(record, state)
    return out


def export_lines(records: list[Record], viewer: Actor, state: CourtState) -> list[dict[str, Any]]:
    ended = state.status is GameStatus.ENDED
    return [(r if private_visible(r, viewer, ended) else r.withheld()).to_json() for r in records]


def _house_name(state: CourtState, house: str) -> str:
    card = state.rules.house(house) if state.rules else None  # type: ignore[arg-type]
    return card.name if card else house


def _title(state: CourtState, title: str) -> str:
    found = state.rules.title(title) if state.rules else None  # type: ignore[arg-type]
    return found.name if found else title


def _noble(state: CourtState, noble: str) -> str:
    found = state.nobles.get(noble)  # type: ignore[call-overload]
    return found.name if found else noble


def _village(state: CourtState, village: str) -> str:
    rules = state.rules
    found = next((v for v in rules.villages if v.id == village), None) if rules else None
    return found.name if found else village


def _revealed_sentence(state: CourtState, d: dict[str, Any]) -> str:
    title = _title(state, d["title"])
    votes = dict(d["votes"])
    if d["winner"] is None:
        reasons = {
            "tie": "a tie at the top",
            "no_votes": "no candidate had a vote",
            "below_minimum": "nobody reached the minimum",
            "no_candidate": "there was no candidate",
        }
        why = reasons.get(d["reason"], d["reason"])
        return f"Round {state.round}, {title}: nobody elected ({why})."
    return (
        f"Round {state.round}, {title}: {_noble(state, d['winner'])} elected with "
        f"{votes[d['winner']]} vote{'s' if votes[d['winner']] != 1 else ''}."
    )


def _player(state: CourtState, seat: int) -> str:
    info = state.seats.get(seat)  # type: ignore[call-overload]
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
            return f"The sale's deadline passed; recorded as passing: {who}."
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
            return f"The deadline passed; recorded as passing: {who}."
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
                f"{_noble(state, d['noble'])} holds too many {d['category']} titles; "
                f"{_player(state, d['seat'])} must pass or return one (R-3.2)."
            )
        case "GoldAdjusted":
            verb = "gained" if d["amount"] > 0 else "lost"
            return (
                f"{_house_name(state, d['house'])} {verb} {abs(d['amount'])} Gold Dragons "
                f"({d['cause']})."
            )
        # Recorded facts of a Noble's life and Court Events (section 9); the causes the
        # host's facts write start with these words, so a decree's death reads otherwise.
        case "NobleCaptured":
            by = f", by {_noble(state, d['by'])}" if d["by"] else ""
            return (
                f"{_noble(state, d['noble'])} was taken captive by "
                f"{_house_name(state, d['captor'])}{by} ({d['cause']}), recorded by the host."
            )
        case "NobleFreed":
            fact = d["cause"].startswith(("released:", "escaped:"))
            note = ", recorded by the host" if fact else ""
            return f"{_noble(state, d['noble'])} is free again ({d['cause']}){note}."
        case "NobleDied":
            kinds = ("battle", "justice", "assassination", "uprising", "wall", "other")
            fact = d["cause"].split(":", 1)[0] in kinds
            note = ", recorded by the host" if fact else ""
            return f"{_noble(state, d['noble'])} died ({d['cause']}){note}."
        case "NobleAdded":
            return (
                f"{d['noble']['name']} came into play for {_house_name(state, d['house'])} "
                f"({d['cause']}), recorded by the host."
            )
        case "AttributeGained" if d["attribute"] == "prince_of_westeros":
            return (
                f"{_noble(state, d['noble'])} is the Heir, prince of Westeros ({d['cause']}), "
                "recorded by the host."
            )
        case "AttributeGained":
            what = d["attribute"].replace("_", " ")
            return f"{_noble(state, d['noble'])} is now {what} ({d['cause']})."
        case "AllianceEnded":
            allies = " and ".join(_player(state, s) for s in d["seats"])
            return f"The alliance of {allies} ended: {d['reason']}."
        case kind if kind in PURCHASE_EVENTS:
            return _purchase_sentence(state, kind, d)
        case _:
            return f"{record.type} (version {record.version})."


def noble_view(noble: Noble, state: CourtState) -> dict[str, Any]:
    return {
        "id": noble.id,
        "name": noble.name,
        "house": noble.house,
        "gender": noble.gender.value,
        "attributes": sorted(a.value for a in noble.attributes),
        "status": noble.status.value,
        "outlaw": noble.outlaw,
        "captor": noble.captor,
        "spouse": noble.spouse,
        "titles": list(state.titles_of(noble.id)),
    }


def court_view(state: CourtState, version: int, viewer: Actor) -> dict[str, Any]:
    """The whole court as the viewer may see it at `version`."""
    rules = state.ruleset
    profile = rules.profile
    ended = state.status is GameStatus.ENDED
    seat_of = {s.house: s.seat for s in state.seats.values()}
    return {
        "game": {
            "id": state.game_id,
            "version": version,
            "status": state.status.value,
            "players": state.players,
            "host_name": state.host_name,
            "profile": profile.name,
            "variants": {
                "nights_watch": profile.variants.nights_watch,
                "title_concession": profile.variants.title_concession,
                "sealed_ballots": profile.variants.sealed_ballots,
            },
            "deadlines": {
                "candidacy": profile.deadlines.candidacy,
                "ballot": profile.deadlines.ballot,
                "decree": profile.deadlines.decree,
                "title_choice": profile.deadlines.title_choice,
                "purchase": profile.deadlines.purchase,
            },
            "round": state.round,
            "phase": state.phase.value if state.phase else None,
            "step": state.step,
            "first_player": state.first_player,
            "turn_order": list(state.turn_order()),
            "dice_seed_sha256": state.dice_seed_sha256,
            "dice_seed": state.dice_seed if ended else None,
        },
        "viewer": {
            "seat": viewer.seat,
            "host": viewer.host,
            "role": "player" if viewer.seat is not None else "host" if viewer.host else "spectator",
        },
        "seats": [
            {"seat": s.seat, "house": s.house, "player_name": s.player_name, "host": s.host}
            for s in sorted(state.seats.values(), key=lambda s: s.seat)
        ],
        "houses": [
            {
                "id": h.id,
                "name": h.name,
                "words": h.words,
                "colours": list(h.colours),
                "seat": seat_of.get(h.id),
                "treasury": state.treasury.get(h.id),
                # Roster Nobles first, then those a Court Event brought into play.
                "nobles": [noble_view(n, state) for n in state.nobles.values() if n.house == h.id],
            }
            for h in rules.houses
        ],
        "titles": [
            {
                "id": t.id,
                "name": t.name,
                "category": t.category.value,
                "vp": t.vp,
                "holder": state.titles.get(t.id),
            }
            for t in rules.titles
        ],
        "election": election_view(state.election, viewer),
        "pending": pending_view(state.pending),
        "auction": auction_view(state.auction),
        "offers": offers_view(state.offers),
        "regions": [
            {
                "id": r.id,
                "number": r.number,
                "name": r.name,
                "principal": r.principal,
                "villages": [
                    {
                        "id": v.id,
                        "name": v.name,
                        "fiefdom": v.fiefdom,
                        "controller": state.villages.get(v.id),
                        "sept": v.id in state.septs,
                    }
                    for v in rules.villages
                    if v.region == r.id
                ],
            }
            for r in rules.regions
        ],
    }


def election_view(election: Election | None, viewer: Actor) -> dict[str, Any] | None:
    """The election under way as the viewer may see it: only his own markers' kinds."""
    if election is None:
        return None
    mine = election.placements.get(viewer.seat, ()) if viewer.seat is not None else ()  # type: ignore[call-overload]
    return {
        "id": election.id,
        "title": election.title,
        "stage": election.stage.value,
        "order": list(election.order),
        "acted": list(election.acted),
        "current": election.current,
        "candidates": [{"seat": s, "noble": n} for s, n in election.candidates],
        "weights": [{"seat": s, "votes": v} for s, v in election.weights.items()],
        "minimum": election.minimum,
        "deadline": election.deadline,
        "placed": [
            {
                "seat": seat,
                "markers": [
                    {"commitment": m.commitment, "candidate": m.candidate} for m in markers
                ],
            }
            for seat, markers in election.placements.items()
        ],
        "my_markers": [
            {"commitment": m.commitment, "kind": m.secret_kind, "candidate": m.secret_candidate}
            for m in mine
        ],
    }


def pending_view(pending: PendingTitle | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    return {
        "kind": pending.kind.value,
        "seat": pending.seat,
        "noble": pending.noble,
        "title": pending.title,
        "election": pending.election,
        "deadline": pending.deadline,
    }
