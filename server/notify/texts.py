"""The notices a command's records and the court after them give the players' chat: whose
turn it is now (when that changed), an election's result (the winner and his votes, the
public tally), the sale of the fourth council seat's result and the end of the game. Only
what the history shows everyone goes into a notice: never a ballot, a bid, a token or a
whisper."""

from __future__ import annotations

from collections.abc import Sequence

from court.chain import Record
from court.codec import upcast
from court.ids import Seat
from court.sentences import describe
from court.sentences import names as said
from court.state import CourtState
from court.views.waiting import Awaited, awaited
from server.store.notices import Notice

# The records whose history sentence is itself the notice.
TOLD = ("BallotsRevealed", "GameEnded")
KEY_MAX = 200


def notices_of(
    game_id: str, records: Sequence[Record], state: CourtState, last_turn: str | None
) -> tuple[list[Notice], str | None]:
    """The notices of one command, and the key of the turn the court waits on after it (to
    give as `last_turn` next time: a turn is told once)."""
    found = [
        Notice(game_id, f"record:{r.version}", text)
        for r in records
        if (text := _record_text(r, state)) is not None
    ]
    turn = awaited(state)
    key = None if turn is None else turn.key
    if turn is not None and key != last_turn:
        found.append(Notice(game_id, f"turn:{turn.key}"[:KEY_MAX], turn_text(turn, state)))
    return found, key


def turn_text(turn: Awaited, state: CourtState) -> str:
    """ "It is Ann's turn: Warden of the North election, ballot." """
    names = [_name(state, seat) for seat in turn.seats]
    who = f"{names[0]}'s turn" if len(names) == 1 else f"the turn of {_listed(names)}"
    return f"It is {who}: {turn.step}, {turn.what}."


def _record_text(record: Record, state: CourtState) -> str | None:
    if record.type in TOLD:
        return describe(record, state)
    if record.type == "BidsRevealed":
        data = upcast(record.type, record.schema_version, record.data)
        if data["winner"] is None:
            return "The fourth Small Council seat is not sold."
        return f"{said.player(state, data['winner'])} buys the fourth Small Council seat."
    return None


def _name(state: CourtState, seat: int) -> str:
    info = state.seats.get(Seat(seat))
    return info.player_name if info is not None else f"Seat {seat + 1}"


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
