"""Sentences of seats moving between players and devices and of the host role changing
hands."""

from __future__ import annotations

from court.ids import Seat
from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def _seat_handed(d: Data, state: CourtState) -> str:
    old, new = d["old_player_name"], d["player_name"]
    if old == new:
        return f"{old}'s seat moved to a new device."
    return f"{old}'s seat was handed to {new}."


def _seat_claimed(d: Data, state: CourtState) -> str:
    old, new = d["old_player_name"], d["player_name"]
    house = names.house(state, d["house"])
    if old == new:
        return f"The new player of {old}'s seat ({house}) opened the link and plays as {new}."
    return f"{new} opened the link of {old}'s seat ({house}) and plays it now."


def _host_handed_over(d: Data, state: CourtState) -> str:
    return f"{d['from_name']} handed the host role to {d['to_name']}."


def _host_vote_cast(d: Data, state: CourtState) -> str:
    return (
        f"{names.player(state, d['seat'])} voted to make "
        f"{names.player(state, d['for_seat'])} the host."
    )


def _host_vote_withdrawn(d: Data, state: CourtState) -> str:
    return f"{names.player(state, d['seat'])} withdrew the vote for a new host."


def _host_taken_over(d: Data, state: CourtState) -> str:
    voters = d.get("voters") or []
    if not voters:  # logs from before the voters were named counted every seat
        return (
            f"{d['to_name']} became the host in place of {d['from_name']}, by the votes of "
            f"{d['votes']} of the {d['seats']} seats."
        )
    named = [names.player(state, v) for v in voters]
    who = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return (
        f"{d['to_name']} became the host in place of {d['from_name']}, who had been away: "
        f"{who} voted for it, {d['votes']} of the {d['seats']} other seats."
    )


def _seat_removed(d: Data, state: CourtState) -> str:
    return (
        f"The host removed {d['player_name']} from the table, freeing "
        f"{names.house(state, d['house'])}."
    )


def _holder(d: Data, state: CourtState) -> str:
    """Whose seat or role a key's link stands for: "Eddard's seat (House Stark)"."""
    seat = d.get("seat")
    if seat is None:
        return "The game master's role" if d.get("master") else "The host's role"
    info = state.seats.get(Seat(seat))
    if info is None:
        return f"Seat {seat + 1}"
    return f"{info.player_name}'s seat ({names.house(state, info.house)})"


def _seat_link_added(d: Data, state: CourtState) -> str:
    return (
        f"{_holder(d, state)} was gathered into a key: a device that opens the key plays it "
        f"with a link of its own (link {d['link']})."
    )


# Why a key let its link go, by court/model/links.py's LinkEnd.
LINK_ENDS = {
    "revoked": "the key was revoked",
    "replaced": "a new key replaced the key",
}


def _seat_link_dropped(d: Data, state: CourtState) -> str:
    why = LINK_ENDS.get(d["reason"], "the key let it go")
    return f"{_holder(d, state)}: link {d['link']} of a key opens nothing now; {why}."


SENTENCES: Sentences = {
    "SeatHanded": _seat_handed,
    "SeatClaimed": _seat_claimed,
    "HostHandedOver": _host_handed_over,
    "HostVoteCast": _host_vote_cast,
    "HostVoteWithdrawn": _host_vote_withdrawn,
    "HostTakenOver": _host_taken_over,
    "SeatRemoved": _seat_removed,
    "SeatLinkAdded": _seat_link_added,
    "SeatLinkDropped": _seat_link_dropped,
}
