"""What each viewer may see: the court and the log rendered for a seat, the host or a spectator.

Raw events never leave the server; these functions decide what does. A private
part is shown to the seat that owns it, and to everyone once the game has ended.
"""

from __future__ import annotations

from typing import Any

from court.chain import Record
from court.commands import Actor
from court.state import CourtState, GameStatus, Noble


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


def _player(state: CourtState, seat: int) -> str:
    info = state.seats.get(seat)  # type: ignore[call-overload]
    return f"{info.player_name} ({_house_name(state, info.house)})" if info else "A player"


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
        case "GoldAdjusted":
            verb = "gained" if d["amount"] > 0 else "lost"
            return (
                f"{_house_name(state, d['house'])} {verb} {abs(d['amount'])} Gold Dragons "
                f"({d['cause']})."
            )
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
                "nobles": [
                    noble_view(state.nobles[n.id], state) for n in h.nobles if n.id in state.nobles
                ],
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
