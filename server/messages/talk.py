"""The talk messages of the live connection: `say` at the table and `whisper` to one party.
They are no court commands (talk never enters the court log), so they are declared here beside
the catalogue, and docs/protocol.md's talk table is made from them
(`python -m server.messages.talk`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, ValidationError, fields

from court.talk import MASTER
from server.messages.fields import Shape
from server.messages.message import schema_of

SEAT_MOST = 5  # seats are numbered 0 to 5


class Party(fields.Field):
    """Whom a whisper goes to: a seat number or "master"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value == MASTER:
            return MASTER
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= SEAT_MOST:
            return value
        raise ValidationError(f'Whisper to a seat number (0 to {SEAT_MOST}) or to "master".')


class SaySchema(Shape):
    # Its length and characters are judged by court/talk.py's clean_talk, with their own
    # codes; a message is at most MAX_REQUEST_BYTES anyway.
    text = fields.String(required=True)


class WhisperSchema(Shape):
    to = Party(required=True)
    text = fields.String(required=True)


@dataclass(frozen=True, slots=True)
class TalkMessage:
    name: str
    who: str
    payload: str
    summary: str
    schema: type[Schema]

    def load(self, payload: Any) -> dict[str, Any]:
        if not isinstance(payload, dict):
            raise ValidationError({"_payload": ["Send a JSON object."]})
        return schema_of(self.schema).load(payload)


TALK = {
    m.name: m
    for m in (
        TalkMessage(
            "say",
            "a seat or the game master",
            "{text}",
            "Say a line at the table: every seat and the game master get it as `talk`; "
            "ack `{ok, line}`",
            SaySchema,
        ),
        TalkMessage(
            "whisper",
            "a seat or the game master",
            '{to: seat \\| "master", text}',
            "Whisper a line to one seat or to the game master: only the two of you get it "
            "as `talk`; ack `{ok, line}`",
            WhisperSchema,
        ),
    )
}


def talk_table() -> str:
    """The talk table of docs/protocol.md, made from TALK."""
    rows = [
        "| message | who | payload | what |",
        "|---|---|---|---|",
        *(f"| `{m.name}` | {m.who} | `{m.payload}` | {m.summary} |" for m in TALK.values()),
    ]
    return "\n".join(rows)


if __name__ == "__main__":
    print(talk_table())
