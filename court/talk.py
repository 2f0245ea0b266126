"""Table talk and whispers: who may speak to whom, the shape of a line, its hash and the check
of a channel's chain. Talk is kept beside the court log, never in it: a line changes nothing in
the court, and only its parties ever read it.

A channel is the table (every seat and the game master) or a whisper between exactly two
parties: two seats, or a seat and the game master. Each channel is a chain of its own:
hash(n) = SHA-256( hash(n-1) "\\n" canonical JSON of the line's other fields ), so that each
reader checks the channels he reads and learns nothing of the others. The server signs each
line's hash as it stores it (`signature`, server/service/talk.py): a line rewritten in the database
and its chain recomputed no longer carries a signature of the server's key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from court.commands import Actor
from court.errors import BadToken, CourtError, NotAllowed
from court.log.chain import GENESIS, canonical
from court.model.text import unprintable
from court.state import CourtState

TALK_LIMIT = 500
TABLE = "table"
MASTER = "master"


def party_of(actor: Actor) -> str | None:
    """The party an actor speaks as: "seat:N", "master", or None for one who may not talk
    (a spectator, or the host without a seat)."""
    if actor.seat is not None:
        return f"seat:{actor.seat}"
    return MASTER if actor.master else None


def speaker(actor: Actor) -> str:
    """The actor's party, or the refusal of one who has none: a spectator needs a seat's
    token; the host who holds no seat is told that only the seats and the game master talk."""
    party = party_of(actor)
    if actor.spectator:
        raise BadToken("token_required", "Talk needs your seat token: spectators say nothing.")
    if party is None:
        raise NotAllowed(
            "seat_required", "Only the seated players and the game master talk at this table."
        )
    return party


def parties(state: CourtState) -> tuple[str, ...]:
    """Everyone at the table now: each seat, then the game master if the game has one."""
    seated = tuple(f"seat:{seat}" for seat in sorted(state.seats))
    return seated + ((MASTER,) if state.game_master_token_sha256 is not None else ())


def whisper_channel(one: str, other: str) -> str:
    """The one channel between two parties, whichever of them speaks."""
    first, second = sorted((one, other))
    return f"whisper:{first}|{second}"


def channel_parties(channel: str, state: CourtState) -> tuple[str, ...]:
    if channel == TABLE:
        return parties(state)
    return tuple(channel.removeprefix("whisper:").split("|"))


def channels_of(party: str, state: CourtState) -> tuple[str, ...]:
    """Every channel a party reads: the table and its whispers with each other party."""
    return (TABLE, *(whisper_channel(party, p) for p in parties(state) if p != party))


def addressee(sender: str, to: int | str, state: CourtState) -> str:
    """The party a whisper goes to: a seat number or "master"; never the sender himself nor
    anyone not at this table."""
    party = MASTER if to == MASTER else f"seat:{to}"
    if party == sender:
        raise CourtError("whisper_to_self", "A whisper goes to someone else than yourself.")
    if party not in parties(state):
        raise NotAllowed(
            "whisper_to_nobody", "Whisper to a seated player or to the game master of this game."
        )
    return party


def clean_talk(raw: str) -> str:
    """What a party typed, trimmed: 1 to TALK_LIMIT printable characters, as court/model/text.py
    judges them for names."""
    text = raw.strip()
    if not text:
        raise CourtError("talk_empty", "Type something to say.")
    if len(text) > TALK_LIMIT:
        raise CourtError(
            "talk_too_long", f"A line holds at most {TALK_LIMIT} characters; this one has more."
        )
    problem = unprintable(text)
    if problem is not None:
        raise CourtError("talk_unprintable", f"This line cannot be shown as typed: {problem}.")
    return text


@dataclass(frozen=True, slots=True, kw_only=True)
class TalkLine:
    """One line said in a channel: the `number`-th of the channel, said when the court
    stood at `court_version`. `position` orders every line of every game (0 before stored)."""

    game_id: str
    channel: str
    number: int
    court_version: int
    sender: str
    recipients: tuple[str, ...]
    said_at: str
    text: str
    prev_hash: str
    hash: str
    position: int = 0
    signature: str = ""  # the server's Ed25519 signature of the line's hash (base64)

    def hashed_fields(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "channel": self.channel,
            "number": self.number,
            "court_version": self.court_version,
            "sender": self.sender,
            "recipients": list(self.recipients),
            "said_at": self.said_at,
            "text": self.text,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            **self.hashed_fields(),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
            "signature": self.signature,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TalkLine:
        return cls(
            position=int(data.get("position", 0)),
            game_id=str(data["game_id"]),
            channel=str(data["channel"]),
            number=int(data["number"]),
            court_version=int(data["court_version"]),
            sender=str(data["sender"]),
            recipients=tuple(str(p) for p in data["recipients"]),
            said_at=str(data["said_at"]),
            text=str(data["text"]),
            prev_hash=str(data["prev_hash"]),
            hash=str(data["hash"]),
            signature=str(data.get("signature", "")),
        )


def line_hash(prev_hash: str, fields: dict[str, Any]) -> str:
    payload = f"{prev_hash}\n{canonical(fields)}"
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True, slots=True, kw_only=True)
class Said:
    """What a party said, before it is chained: where, to whom, when and at which version."""

    game_id: str
    channel: str
    sender: str
    recipients: tuple[str, ...]
    court_version: int
    said_at: str
    text: str


class ChannelHead(NamedTuple):
    """A channel's newest line: its number and the hash the chain ends on."""

    number: int
    hash: str


def chained_line(said: Said, head: ChannelHead | None) -> TalkLine:
    """The line that follows the channel's `head`, or opens the channel."""
    number, prev = head if head is not None else ChannelHead(0, GENESIS)
    line = TalkLine(
        game_id=said.game_id,
        channel=said.channel,
        number=number + 1,
        court_version=said.court_version,
        sender=said.sender,
        recipients=said.recipients,
        said_at=said.said_at,
        text=said.text,
        prev_hash=prev,
        hash="",
    )
    return TalkLine(**{**_fields(line), "hash": line_hash(prev, line.hashed_fields())})


def _fields(line: TalkLine) -> dict[str, Any]:
    return {name: getattr(line, name) for name in TalkLine.__dataclass_fields__}


@dataclass(frozen=True, slots=True, kw_only=True)
class ChannelCheck:
    """The check of one channel's chain: how many lines, the hash it ends on, the first
    failure found (None when the chain holds), and how many of its first lines carry no
    signature (said before the server signed talk lines: believed as far as their chain goes,
    and shown as unsigned)."""

    channel: str
    lines: int
    head: str
    problem: str | None = None
    unsigned: int = 0

    @property
    def ok(self) -> bool:
        return self.problem is None

    def to_json(self) -> dict[str, Any]:
        return {
            "channel": self.channel,
            "ok": self.ok,
            "lines": self.lines,
            "head": self.head,
            "problem": self.problem,
            "unsigned": self.unsigned,
        }


def check_channel(
    channel: str,
    lines: Sequence[TalkLine],
    *,
    joined: bool = False,
    signed: Callable[[TalkLine], bool] = lambda _: True,
) -> ChannelCheck:
    """Whether the lines, in order, are the whole channel from its first line: numbered one
    after another, each linked to the one before, hashed as it reads and `signed` (by the
    server's key). `joined`: the reader joined the channel late (a seat handed to a new
    player), and the lines are checked from the first one given, which links to lines that
    are not his to read. Lines with no signature at all before the channel's first signed
    line were said before the server signed talk lines: they are counted, not failed; once a
    line is signed, every later line must be."""
    first = lines[0] if joined and lines else None
    prev, number = (first.prev_hash, first.number - 1) if first else (GENESIS, 0)
    unsigned = 0
    for count, line in enumerate(lines):
        problem = _link_problem(channel, line, number + 1, prev)
        if problem is None and not line.signature and unsigned == count:
            unsigned += 1
        elif problem is None and not signed(line):
            problem = f"line {number + 1} is not signed by the server's key: it was changed"
        if problem is not None:
            return ChannelCheck(
                channel=channel, lines=count, head=prev, problem=problem, unsigned=unsigned
            )
        prev, number = line.hash, number + 1
    return ChannelCheck(channel=channel, lines=len(lines), head=prev, unsigned=unsigned)


def _link_problem(channel: str, line: TalkLine, number: int, prev: str) -> str | None:
    if line.channel != channel:
        return f"line {line.number} belongs to another channel"
    if line.number != number:
        return f"line {number} is missing (line {line.number} follows line {number - 1})"
    if line.prev_hash != prev:
        return f"line {number} does not follow the hash of line {number - 1}"
    if line_hash(prev, line.hashed_fields()) != line.hash:
        return f"line {number} was changed after it was said"
    return None


def check_channels(
    lines: Iterable[TalkLine],
    joined: Collection[str] = (),
    signed: Callable[[TalkLine], bool] = lambda _: True,
) -> list[ChannelCheck]:
    """The check of each channel the lines belong to, channel by channel in name order; those
    in `joined` from the first line given (`check_channel`)."""
    grouped: dict[str, list[TalkLine]] = {}
    for line in lines:
        grouped.setdefault(line.channel, []).append(line)
    return [
        check_channel(channel, grouped[channel], joined=channel in joined, signed=signed)
        for channel in sorted(grouped)
    ]
