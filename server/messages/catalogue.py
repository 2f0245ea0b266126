"""The catalogue: every command a client can send, declared once (game, election, decrees,
facts, purchases), looked up by name or by command, and told as docs/protocol.md's table."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from court.commands import Command
from server.messages.decrees import DECREES
from server.messages.devices import DEVICES
from server.messages.election import ELECTION
from server.messages.facts import FACTS
from server.messages.game import GAME
from server.messages.message import Message
from server.messages.purchases import PURCHASES
from server.messages.seats import SEATS
from server.messages.table import TABLE

CATALOGUE: dict[str, Message] = {
    m.name: m for m in (*GAME, *ELECTION, *DECREES, *FACTS, *PURCHASES, *SEATS, *TABLE, *DEVICES)
}
BY_COMMAND: dict[type, Message] = {m.command: m for m in CATALOGUE.values()}


def move_view(command: Command) -> dict[str, Any]:
    """A listed move as the message a client sends: its name and its payload."""
    message = BY_COMMAND[type(command)]
    return {"message": message.name, "payload": message.payload(command)}


# -- the table of docs/protocol.md ----------------------------------------------------------


def _shape(field: fields.Field) -> str:
    choices = getattr(field.validate, "choices", None) if field.validate else None
    if choices is None:
        found = [v for v in field.validators if hasattr(v, "choices")]
        choices = found[0].choices if found else None
    if isinstance(field, fields.List):
        most = [v.max for v in field.validators if isinstance(v, validate.Length) and v.max]
        return f"[{_shape(field.inner)}…]" + (f" (at most {most[0]})" if most else "")
    if isinstance(field, fields.Nested):
        return _payload(field.schema.fields)
    if choices:
        return " \\| ".join(f'"{c}"' for c in choices)
    return ""


def _payload(declared: dict[str, fields.Field]) -> str:
    parts = []
    for name, field in declared.items():
        shape = _shape(field)
        optional = "" if field.required else "?"
        text = f"{name}{optional}" + (f": {shape}" if shape else "")
        if field.allow_none:
            text += " \\| null" if shape else ": id \\| null"
        parts.append(text)
    return "{" + ", ".join(parts) + "}"


def payload_shape(message: Message) -> str:
    """The payload as docs/protocol.md writes it: `{noble, to?: id | null}`."""
    return _payload(message.schema().fields) if message.schema else "{}"


def message_table() -> str:
    """The Client → server table of docs/protocol.md, made from the catalogue."""
    rows = [
        "| message | who | payload | what |",
        "|---|---|---|---|",
        *(
            f"| `{m.name}` | {m.who} | `{payload_shape(m)}` | {m.summary} |"
            for m in CATALOGUE.values()
        ),
    ]
    return "\n".join(rows)


if __name__ == "__main__":
    print(message_table())
