"""The victory check of phase 8 (R-3.7, R-4.7) and the game's last round (R-4.8)."""

from __future__ import annotations

from court.events.decrees import GameEnded, Score
from court.ids import HouseId, Seat
from court.model.ending import How
from court.state import CourtState

# A party that may win: its seats (one, or two allied by marriage) and their VP together.
Party = tuple[tuple[Seat, ...], int]


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


def parties(state: CourtState) -> list[Party]:
    """R-4.7: each player not allied, alone, and each pair allied by marriage, together."""
    vp = points(state)
    found: list[Party] = [((s,), vp[s]) for s in state.seat_order if state.alliance_of(s) is None]
    found += [(a.seats, vp[a.seats[0]] + vp[a.seats[1]]) for a in state.alliances]
    return found


def scores(state: CourtState) -> tuple[Score, ...]:
    return tuple(Score(seat=s, points=p) for s, p in points(state).items())


def check(state: CourtState) -> GameEnded | None:
    """R-4.7: a lone player with 3 VP wins; an allied pair wins together with 4 (5 with the
    NWE) and neither can win alone. Every qualifying party is recorded [D], or with
    `all_qualifying_win` off only those with the most VP. Without a winner, the last round's
    check ends the game (R-4.8)."""
    victory = state.ruleset.profile.victory
    pair_target = (
        victory.alliance_vp_nights_watch
        if state.ruleset.profile.variants.nights_watch
        else victory.alliance_vp
    )
    qualifying = [
        (seats, vp)
        for seats, vp in parties(state)
        if vp >= (victory.solo_vp if len(seats) == 1 else pair_target)
    ]
    if not qualifying:
        return last_round(state)
    if not victory.all_qualifying_win:
        # R-4.7 [D] variant: of several qualifying parties only those with the most VP win.
        qualifying = _most(qualifying)
    reasons = [_holding(seats, vp) for seats, vp in qualifying]
    return _ended(state, qualifying, How.VICTORY, "; ".join(reasons) + " (R-4.7)")


def last_round(state: CourtState) -> GameEnded | None:
    """R-4.8: at the victory check of the profile's last round (0: none), the party or
    parties holding the most VP win, allies counted together; a tie names every tied one."""
    last = state.ruleset.profile.victory.last_round
    if not last or state.round < last:
        return None
    best = _most(parties(state))
    reason = (
        f"round {state.round} was the last: "
        + "; ".join(_holding(seats, vp) for seats, vp in best)
        + ", the most (R-4.8)"
    )
    return _ended(state, best, How.LAST_ROUND, reason)


def _most(found: list[Party]) -> list[Party]:
    top = max(vp for _, vp in found)
    return [party for party in found if party[1] == top]


def _holding(seats: tuple[Seat, ...], vp: int) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]} holds {vp} VP alone"
    return f"seats {seats[0]} and {seats[1]} hold {vp} VP together"


def _ended(state: CourtState, winning: list[Party], how: How, reason: str) -> GameEnded:
    winners = sorted(dict.fromkeys(seat for seats, _ in winning for seat in seats))
    return GameEnded(winners=tuple(winners), points=scores(state), reason=reason, how=how.value)
