"""The victory check of phase 8 (R-3.7, R-4.7)."""

from __future__ import annotations

from court.events.decrees import GameEnded, Score
from court.ids import HouseId, Seat
from court.state import CourtState


def house_points(state: CourtState) -> dict[HouseId, int]:
    """Victory points each House's living Nobles hold through their titles (R-3.7), every
    House of the roster, seated or not."""
    vp = {t.id: t.vp for t in state.ruleset.titles}
    totals = {house.id: 0 for house in state.ruleset.houses}
    for title, noble_id in state.titles.items():
        noble = state.nobles[noble_id]
        if noble.alive:
            totals[noble.house] = totals.get(noble.house, 0) + vp.get(title, 0)
    return totals


def points(state: CourtState) -> dict[Seat, int]:
    """Victory points each player's Nobles hold through their titles (R-3.7)."""
    by_house = house_points(state)
    return {seat: by_house.get(state.seats[seat].house, 0) for seat in state.seat_order}


def check(state: CourtState) -> GameEnded | None:
    """R-4.7: a lone player with 3 VP wins; an allied pair wins together with 4 (5 with the
    NWE) and neither can win alone. Every qualifying party is recorded [D], or with
    `all_qualifying_win` off only those with the most VP."""
    victory = state.ruleset.profile.victory
    pair_target = (
        victory.alliance_vp_nights_watch
        if state.ruleset.profile.variants.nights_watch
        else victory.alliance_vp
    )
    vp = points(state)
    # Each qualifying party: its seats, its VP and the sentence saying so.
    parties: list[tuple[tuple[Seat, ...], int, str]] = []
    for seat in state.seat_order:
        if state.alliance_of(seat) is None and vp[seat] >= victory.solo_vp:
            parties.append(((seat,), vp[seat], f"seat {seat} holds {vp[seat]} VP alone"))
    for alliance in state.alliances:
        a, b = alliance.seats
        if vp[a] + vp[b] >= pair_target:
            parties.append(
                ((a, b), vp[a] + vp[b], f"seats {a} and {b} hold {vp[a] + vp[b]} VP together")
            )
    if not parties:
        return None
    if not victory.all_qualifying_win:
        # R-4.7 [D] variant: of several qualifying parties only those with the most VP win.
        best = max(points_ for _, points_, _ in parties)
        parties = [p for p in parties if p[1] == best]
    winners = list(dict.fromkeys(seat for seats, _, _ in parties for seat in seats))
    reasons = [reason for _, _, reason in parties]
    return GameEnded(
        winners=tuple(winners),
        points=tuple(Score(seat=s, points=p) for s, p in vp.items()),
        reason="; ".join(reasons) + " (R-4.7)",
    )
