"""The sections of the court as a seat, the host, the game master or a spectator may see it;
court/views/sections.py declares each and makes the view of them."""

from __future__ import annotations

from typing import Any

from court.commands import Actor
from court.decide.victory import house_points
from court.ids import Seat
from court.model import steps
from court.sentences import names
from court.state import CourtState, Election, GameStatus, Noble, PendingTitle
from court.views.padding import padded_marker

# Made once: every view shares the one dict.
PHASE_NAMES = {str(phase): name for phase, name in names.PHASES.items()}


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


def _role(viewer: Actor) -> str:
    if viewer.seat is not None:
        return "player"
    if viewer.host:
        return "host"
    return "game_master" if viewer.master else "spectator"


def game_view(state: CourtState, version: int | None) -> dict[str, Any]:
    """The game itself: its settings, where the round stands, and the dice seed's digest (the
    seed itself once the game has ended)."""
    profile = state.ruleset.profile
    ended = state.status is GameStatus.ENDED
    return {
        "id": state.game_id,
        "version": version,
        "status": state.status.value,
        # The host's name for the game (null: none), and what pages call it either way.
        "name": state.name,
        "title": names.game(state),
        "players": state.players,
        "host_name": state.host_name,
        "listed": state.listed,
        "game_master_name": state.game_master_name,
        "profile": profile.name,
        "variants": {
            "nights_watch": profile.variants.nights_watch,
            "title_concession": profile.variants.title_concession,
            "sealed_ballots": profile.variants.sealed_ballots,
            "clocks": profile.variants.clocks,
        },
        "deadlines": {
            "candidacy": profile.deadlines.candidacy,
            "ballot": profile.deadlines.ballot,
            "decree": profile.deadlines.decree,
            "title_choice": profile.deadlines.title_choice,
            "purchase": profile.deadlines.purchase,
        },
        "round": state.round,
        # The round whose victory check ends the game; 0: none.
        "last_round": profile.victory.last_round,
        "phase": state.phase.value if state.phase else None,
        # Every phase's name by its id, for the pages to name the phase of any record.
        "phases": PHASE_NAMES,
        "step": step_view(state),
        "first_player": state.first_player,
        "turn_order": list(state.turn_order()),
        "dice_seed_sha256": state.dice_seed_sha256,
        "dice_seed": state.dice_seed if ended else None,
    }


def step_view(state: CourtState) -> dict[str, Any] | None:
    """The step of this phase opened or skipped last, by its id and its R-4.2 number."""
    step = steps.current(state)
    if step is None:
        return None
    return {"kind": step.kind.value, "id": step.id, "number": step.number, "name": step.name}


def handed_by(state: CourtState, viewer: Actor) -> str:
    """Who handed the viewer's seat to the token he holds: the table's vote or the host."""
    voted = viewer.seat is not None and viewer.seat in state.table.replaced_by
    return "table" if voted else "host"


def viewer_view(viewer: Actor, handed_at: int | None = None, by: str = "host") -> dict[str, Any]:
    """Who the viewer is; `handed_over` when the seat he holds was handed to his token (a new
    player or a new device), `by` the host or the table's vote, from which version on the
    seat's secrets are his."""
    handed = None if handed_at is None else {"at_version": handed_at or None, "by": by}
    return {
        "seat": viewer.seat,
        "host": viewer.host,
        "role": _role(viewer),
        "holder": viewer.holder,
        "handed_over": handed if viewer.seat is not None else None,
    }


def withheld(
    state: CourtState, version: int, viewer: Actor, handed_at: int | None
) -> frozenset[str] | None:
    """The commitments of the viewer's seat whose secrets are not the viewer's: those sealed
    before the seat was handed to his token; None for all of them, in a court older than the
    hand-over (whatever the seat held then was its old holder's)."""
    if handed_at is not None and version < handed_at:
        return None
    info = state.seats.get(viewer.seat) if viewer.seat is not None else None
    return info.withheld if info is not None else frozenset()


def seats_view(state: CourtState) -> list[dict[str, Any]]:
    """Each seat with its player, whether it holds the host role, the seat it voted to make
    the host (None: no vote), and whether its new player has yet to open his link (R-9.2)."""
    return [
        {
            "seat": s.seat,
            "house": s.house,
            "player_name": s.player_name,
            "host": s.host,
            "host_vote": _voted(state, s.seat),
            "unclaimed": s.unclaimed,
        }
        for s in sorted(state.seats.values(), key=lambda s: s.seat)
    ]


def _voted(state: CourtState, seat: Seat) -> Seat | None:
    vote = state.host_votes.get(seat)
    return vote.seat if vote is not None else None


def houses_view(state: CourtState) -> list[dict[str, Any]]:
    seat_of = {s.house: s.seat for s in state.seats.values()}
    vp = house_points(state)
    return [
        {
            "id": h.id,
            "name": h.name,
            "words": h.words,
            "colours": list(h.colours),
            "arms": {"field": h.arms.field, "charge": h.arms.charge},
            "vp": vp[h.id],
            "seat": seat_of.get(h.id),
            "treasury": state.treasury.get(h.id),
            # Roster Nobles first, then those a Court Event brought into play.
            "nobles": [noble_view(n, state) for n in state.nobles.values() if n.house == h.id],
        }
        for h in state.ruleset.houses
    ]


def election_view(
    election: Election | None, viewer: Actor, withheld: frozenset[str] | None = frozenset()
) -> dict[str, Any] | None:
    """The election under way as the viewer may see it: only his own markers' kinds, and of
    those none whose commitment is `withheld` (None: none at all)."""
    if election is None:
        return None
    return {
        "id": election.id,
        "title": election.title,
        "stage": election.stage.value,
        "order": list(election.order),
        "acted": list(election.acted),
        "current": election.current,
        "candidates": [{"seat": s, "noble": n} for s, n in election.candidates],
        "withdrawn": list(election.withdrawn),
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
        "my_markers": my_markers(election, viewer, withheld),
    }


def my_markers(
    election: Election | None, viewer: Actor, withheld: frozenset[str] | None
) -> list[dict[str, Any]]:
    """The viewer's own markers with their secret kinds and candidates, each padded to one
    width (court/views/padding.py): a view or a change of it is as long whatever they hold."""
    if election is None or viewer.seat is None or withheld is None:
        return []
    return [
        padded_marker(
            {"commitment": m.commitment, "kind": m.secret_kind, "candidate": m.secret_candidate}
        )
        for m in election.placements.get(viewer.seat, ())
        if m.commitment not in withheld
    ]


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


def decree_view(state: CourtState) -> dict[str, Any] | None:
    """The decree step under way: whose turn it is, and a marriage proposal awaiting an answer."""
    decree = state.decree
    if decree is None:
        return None
    proposal = state.proposal
    return {
        "step": decree.id,
        "order": list(decree.order),
        "acted": list(decree.acted),
        "current": decree.current,
        "deadline": decree.deadline,
        # The title each turn acts through and its holder when the step opened.
        "powers": [
            None if p is None else {"title": p.title, "noble": p.noble} for p in decree.powers
        ],
        "proposal": None
        if proposal is None
        else {
            "seat": proposal.seat,
            "noble": proposal.noble,
            "to_seat": proposal.to_seat,
            "to_noble": proposal.to_noble,
        },
    }
