"""The victory check of phase 8 (R-3.7, R-4.7)."""

from __future__ import annotations

from court.events.decrees import GameEnded
from court.ids import Seat
from court.state import CourtState


def points(state: CourtState) -> dict[Seat, int]:
    """Victory points each player's Nobles hold through their titles (R-3.7)."""
    vp = {t.id: t.vp for t in state.ruleset.titles}
    house_seat = {info.house: seat for seat, info in state.seats.items()}
    totals = {seat: 0 for seat in state.seat_order}
    for title, noble in state.titles.items():
        seat = house_seat.get(state.nobles[noble].house)
        if seat is not None and state.nobles[noble].alive:
            totals[seat] += vp.get(title, 0)
    return totals


def check(state: CourtState) -> GameEnded | None:
    """R-4.7: a lone player with 3 VP wins; an allied pair wins together with 4 (5 with the
    NWE) and neither can win alone. Every qualifying player is recorded [D]."""
    victory = state.ruleset.profile.victory
    pair_target = (
        victory.alliance_vp_nights_watch
        if state.ruleset.profile.variants.nights_watch
        else victory.alliance_vp
    )
    vp = points(state)
    winners: list[Seat] = []
    reasons: list[str] = []
    for seat in state.seat_order:
        if state.alliance_of(seat) is None and vp[seat] >= victory.solo_vp:
            winners.append(seat)
            reasons.append(f"seat {seat} holds {vp[seat]} VP alone")
    for alliance in state.alliances:
        a, b = alliance.seats
        if vp[a] + vp[b] >= pair_target:
            winners += [s for s in (a, b) if s not in winners]
            reasons.append(f"seats {a} and {b} hold {vp[a] + vp[b]} VP together")
    if not winners:
        return None
    return GameEnded(
        winners=tuple(winners), points=tuple(vp.items()), reason="; ".join(reasons) + " (R-4.7)"
    )
