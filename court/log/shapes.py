"""The JSON shape of every event as court/log/codec.py stores it, read off the event registry and
the fields' type hints: docs/protocol.md's table of events (`python -m court.log.shapes`)."""

from __future__ import annotations

import types
import typing
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from court import ids
from court.events import EVENT_TYPES
from court.log.codec import parts

SCALARS: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    Any: "any",
}


def json_type(hint: Any) -> str:
    """`[{house: HouseId, gold: integer}…]`: lists in brackets, objects in braces, ids by
    their name (`id_types` says which JSON type each is), null as a choice."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " | ".join("null" if a is type(None) else json_type(a) for a in args)
    if origin in (tuple, frozenset):
        if origin is frozenset or (len(args) == 2 and args[1] is Ellipsis):
            return f"[{json_type(args[0])}…]"
        return "[" + ", ".join(json_type(a) for a in args) + "]"
    if origin is dict:
        return "object"
    if getattr(hint, "__supertype__", None) is not None:
        return hint.__name__
    if isinstance(hint, type) and issubclass(hint, Enum):
        return " | ".join(f'"{m.value}"' for m in hint)
    if isinstance(hint, type) and is_dataclass(hint):
        return "{" + _fields(hint, tuple(f.name for f in fields(hint))) + "}"
    return SCALARS[hint]


def _fields(cls: type, names: tuple[str, ...]) -> str:
    """`name: type` of each field; `name?: type` for one left out while it is None."""
    hints = typing.get_type_hints(cls)
    omitted: frozenset[str] = getattr(cls, "OMITTED_WHEN_NONE", frozenset())
    return ", ".join(
        f"{name}?: {json_type(_present(hints[name]))}"
        if name in omitted
        else f"{name}: {json_type(hints[name])}"
        for name in names
    )


def _present(hint: Any) -> Any:
    """`hint` without its None: the type of a field the object holds only when it is not."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    return args[0] if len(args) == 1 else hint


def id_types(used: str) -> str:
    """What JSON type each id named in `used` is: "Seat: integer; HouseId, NobleId: string"."""
    found = sorted(
        (name, SCALARS[value.__supertype__])
        for name, value in vars(ids).items()
        if getattr(value, "__supertype__", None) is not None and name in used
    )
    kinds = sorted({kind for _, kind in found})
    return "; ".join(", ".join(n for n, k in found if k == kind) + f": {kind}" for kind in kinds)


def event_table() -> str:
    """Every event type: its persisted name, its current schema version and the JSON types of
    its public and private fields, in the order of the registry (court/events/__init__.py)."""

    def cell(text: str) -> str:
        return f"`{text}`".replace("|", "\\|") if text else "—"

    rows = ["| event | schema | public data | private part |", "|---|---|---|---|"]
    for name, (cls, version) in EVENT_TYPES.items():
        public, private = parts(cls)
        rows.append(
            f"| `{name}` | {version} | {cell(_fields(cls, public))} "
            f"| {cell(_fields(cls, private))} |"
        )
    table = "\n".join(rows)
    return f"Ids in JSON: {id_types(table)}.\n\n{table}"


if __name__ == "__main__":
    print(event_table())
