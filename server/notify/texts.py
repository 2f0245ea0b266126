"""The words of the notices to the players' chat and mail: a record as the history tells it,
read as a plain sentence (no rule ids), whose turn it is, the game as its name calls it, and
several notices as one post. Only what the history shows everyone goes into a notice: never a
ballot, a bid, a token or a whisper. What players typed (their names, the Nobles they bring
into play) is escaped here, and only here, so that the group's chat shows it as typed and
never as a link, a mention or formatting, and a mail (server/notify/reminders.py) never as a
link. Which records each digest tells is digest.py's."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from court.ids import Seat
from court.log.chain import Record
from court.log.codec import upcast
from court.sentences import describe
from court.sentences import names as said
from court.state import CourtState
from court.views.waiting import Awaited

SOLD = "BidsRevealed"
KEY_MAX = 200
# A rule as the history cites it ("R-4.3", "§9"), and a citation of rules alone in
# parentheses ("(R-4.3)", "(section 9)", "(R-4.7: only the victory check ...)"), or inside
# others' ("(court event, R-3.5)"): the chat and a mail read the sentence without them. A
# name a player typed never matches: its "-", "§" and brackets are escaped (typed).
_RULE = r"(?:R-\d+(?:\.\d+)*|§\s?\d+)"
_RULES = rf"(?:{_RULE}|section \d+)(?:(?:,| and| to) (?:{_RULE}|section \d+))*"
_CITATION = re.compile(rf"\s*\({_RULES}(?::[^()]*)?\)")
_CITED = re.compile(rf"(?:,\s*{_RULE}|{_RULE},\s*|\s*{_RULE})")
_LOOSE = re.compile(r"\s+(?=[.,;:)])|\(\s*\)")

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
# text never holds a zero-width space (court/model/text.py refuses invisible characters), so
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


def plain(sentence: str) -> str:
    """A history sentence without the rules it cites: "The clock ran out (R-4.3); ..." reads
    "The clock ran out; ..."."""
    return _LOOSE.sub("", _CITED.sub("", _CITATION.sub("", sentence)))


def game_called(state: CourtState) -> Called:
    """The game's id, and how a mail names it: “its name” as the host gave it, else
    "game <id>"."""
    return state.game_id, (f"“{state.name}”" if state.name else f"game {state.game_id}")


def lead(state: CourtState) -> str:
    """The line a post to the chat opens with: the game's name (escaped by names_typed), or
    "Game <id>" without one: a chat may hear of several games."""
    return said.game(state)


def post_text(lead: str, texts: Sequence[str], link: str = "") -> str:
    """Notices as one post: one after its lead on a line, several each on a line of its own
    under it; then the game's link."""
    if lead and len(texts) == 1:
        lines = [f"{lead}: {texts[0]}"]
    else:
        lines = [f"{lead}:", *texts] if lead else list(texts)
    return "\n".join([*lines, link] if link else lines)


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


def turn_text(turn: Awaited, state: CourtState) -> str:
    """ "It is Ann's turn: Warden of the North election, ballot." """
    names = [_name(state, seat) for seat in turn.seats]
    who = f"{names[0]}'s turn" if len(names) == 1 else f"the turn of {_listed(names)}"
    return f"It is {who}: {turn.step}, {turn.what}."


def record_text(record: Record, state: CourtState) -> str:
    """What a notice says of a record: its history sentence as a plain one; the sale's result
    in a sentence of its own (the history's names every bid)."""
    if record.type == SOLD:
        data = upcast(record.type, record.schema_version, record.data)
        if data["winner"] is None:
            return "The fourth Small Council seat is not sold."
        return f"{said.player(state, data['winner'])} buys the fourth Small Council seat."
    return plain(describe(record, state))


def _name(state: CourtState, seat: int) -> str:
    info = state.seats.get(Seat(seat))
    return info.player_name if info is not None else f"Seat {seat + 1}"


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
