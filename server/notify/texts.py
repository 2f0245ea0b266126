"""The notices a command's records and the court after them give the players' chat: whose
turn it is now (when that changed), an election's result (the winner and his votes, the
public tally), the sale of the fourth council seat's result and the end of the game. Only
what the history shows everyone goes into a notice: never a ballot, a bid, a token or a
whisper. What players typed (their names, the Nobles they bring into play) is escaped here,
and only here, so that the group's chat shows it as typed and never as a link, a mention or
formatting, and a mail (server/notify/reminders.py) never as a link."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from court.chain import Record
from court.codec import upcast
from court.ids import Seat
from court.sentences import describe
from court.sentences import names as said
from court.state import CourtState
from court.views.waiting import Awaited, awaited
from server.store.notices import Notice

# The records whose history sentence is itself the notice, and the sale's result.
TOLD = ("BallotsRevealed", "GameEnded")
SOLD = "BidsRevealed"
KEY_MAX = 200

# Discord reads markdown only in ASCII punctuation, and shows a character after a backslash
# as itself: with all of it escaped a name makes no emphasis, spoiler, quote, heading, list,
# code, emoji, masked link [text](url) or mention, and Discord's link finder, which needs
# "https://" as written, sees no URL.
PUNCTUATION = r"[!-/:-@\[-`{-~]"
_ESCAPED = re.compile(rf"\\({PUNCTUATION})")
# A zero-width space after "@", ":" and ".": "@everyone" is no mention, and "https://x.io"
# or "x.io" is no link for Slack, which shows Discord's backslashes as they are (for_slack
# drops them), nor for a mail reader, which makes links of what a plain text mail holds. A
# URL so broken reads as typed and cannot be clicked: that suits a name better than a code
# span, which would stand out, or a visibly broken "https\://". The full-width and
# ideographic dots, colon and at sign count too: a host name may be written with them. Typed
# text never holds a zero-width space (court/text.py refuses invisible characters), so
# every one is ours.
BREAK = "\u200b"
LINK_MARKS = "@:.\u3002\uff0e\uff61\uff1a\uff20"
_TYPED = re.compile(PUNCTUATION)
_LINK_MARK = re.compile(f"[{LINK_MARKS}]")


def typed(text: str) -> str:
    """What a player typed, as a notice says it (in Discord's markdown; for_slack for Slack)."""
    return unlinked(_TYPED.sub(lambda m: f"\\{m[0]}", text))


def unlinked(text: str) -> str:
    """What a player typed, as a mail says it: plain text in which no reader finds a link or
    an address to make clickable."""
    return _LINK_MARK.sub(lambda m: m[0] + BREAK, text)


def for_slack(text: str) -> str:
    """A notice as Slack's `text`, read without mrkdwn: the typed parts without Discord's
    backslashes, and &, < and > escaped as Slack asks (else "<!channel>" or "<url|text>"
    would be read). The notice's own words and link hold no backslash."""
    plain = _ESCAPED.sub(r"\1", text)
    return plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


Called = tuple[str, str]


def game_called(state: CourtState) -> Called:
    """The game's id, and how a mail names it: “its name” as the host gave it, else
    "game <id>"."""
    return state.game_id, (f"“{state.name}”" if state.name else f"game {state.game_id}")


def in_game(state: CourtState, text: str) -> str:
    """A notice led by the game's name (escaped by names_typed), where it has one: a chat may
    hear of several games."""
    return f"{state.name}: {text}" if state.name else text


def names_typed(state: CourtState, escape: Callable[[str], str] = typed) -> CourtState:
    """The court with every name a player typed escaped (for a notice; `unlinked` for a
    mail): the game's, players, the host, the game master, and Nobles (a Court Event brings
    one into play under a typed name). The sentences name them from this court."""
    master = state.game_master_name
    return replace(
        state,
        name=None if state.name is None else escape(state.name),
        host_name=escape(state.host_name),
        game_master_name=None if master is None else escape(master),
        seats={s: replace(i, player_name=escape(i.player_name)) for s, i in state.seats.items()},
        nobles={n: replace(noble, name=escape(noble.name)) for n, noble in state.nobles.items()},
    )


def game_page(public_url: str, game_id: str) -> str:
    """The game's page as a notice or a mail links it: under PUBLIC_URL, never under an
    address a request named."""
    return f"{public_url}/games/{game_id}"


def notices_of(
    game_id: str, records: Sequence[Record], state: CourtState, last_turn: str | None
) -> tuple[list[Notice], str | None]:
    """The notices of one command, and the key of the turn the court waits on after it (to
    give as `last_turn` next time: a turn is told once)."""
    turn = awaited(state)
    key = None if turn is None else turn.key
    if key == last_turn and not any(r.type in TOLD or r.type == SOLD for r in records):
        return [], key  # nothing to tell: the court need not be copied
    state = names_typed(state)
    found = [
        Notice(game_id, f"record:{r.version}", in_game(state, text))
        for r in records
        if (text := record_text(r, state)) is not None
    ]
    if turn is not None and key != last_turn:
        found.append(
            Notice(game_id, f"turn:{turn.key}"[:KEY_MAX], in_game(state, turn_text(turn, state)))
        )
    return found, key


def turn_text(turn: Awaited, state: CourtState) -> str:
    """ "It is Ann's turn: Warden of the North election, ballot." """
    names = [_name(state, seat) for seat in turn.seats]
    who = f"{names[0]}'s turn" if len(names) == 1 else f"the turn of {_listed(names)}"
    return f"It is {who}: {turn.step}, {turn.what}."


def record_text(record: Record, state: CourtState) -> str | None:
    """What a notice says of a record the players are told of (a result, the end), or None."""
    if record.type in TOLD:
        return describe(record, state)
    if record.type == SOLD:
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
