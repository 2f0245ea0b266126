"""Hypothesis strategies for every client -> server Socket.IO message: payloads of the right
shape naming things the court knows, and payloads that are malformed by construction.

Both are read off the marshmallow schema each message is loaded with, so a new message or a
new field is fuzzed without a change here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from marshmallow import Schema, fields, validate

from server.live.sockets import CourtNamespace, SyncSchema
from server.messages.catalogue import CATALOGUE
from server.messages.fields import Text
from server.messages.talk import TALK, Party

ROOT = Path(__file__).resolve().parents[2]

# Every message the namespace takes, with the schema it loads: the catalogue's, `sync`, and
# the talk messages'.
SCHEMAS: dict[str, type[Schema] | None] = {
    **{name: message.schema for name, message in CATALOGUE.items()},
    "sync": SyncSchema,
    **{name: message.schema for name, message in TALK.items()},
}

# Body fields naming a thing of the court -> the kind of id (tables.vocabulary) to draw.
NAMED = {
    **dict.fromkeys(("noble", "captive", "captives", "to", "candidate", "burn", "by"), "noble"),
    "house": "house",
    "village": "village",
    "title": "title",
}

Names = dict[str, tuple[str, ...]]


def documented_messages() -> set[str]:
    """Every message of the client -> server table in docs/protocol.md."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = text.split("## Client → server", 1)[1].split("\n## ", 1)[0]
    found: set[str] = set()
    for line in table.splitlines():
        cells = line.split("|")
        if len(cells) > 2 and cells[1].strip().startswith("`"):
            found.update(re.findall(r"`([a-z_]+)`", cells[1]))
    return found


def handled_messages() -> set[str]:
    """Every message the namespace has a handler for (its connection events aside)."""
    written = {
        name.removeprefix("on_")
        for name in dir(CourtNamespace)
        if name.startswith("on_") and name not in ("on_connect", "on_disconnect")
    }
    namespace = CourtNamespace(None, None, None, None, None)  # type: ignore[arg-type]
    return written | {name for name in CATALOGUE if hasattr(namespace, f"on_{name}")}


def _bounds(field: fields.Field, kind: type) -> tuple[Any, Any]:
    for validator in field.validators:
        if isinstance(validator, kind):
            return validator.min, validator.max
    return None, None


def _choices(field: fields.Field) -> list[str] | None:
    for validator in field.validators:
        if isinstance(validator, validate.OneOf):
            return list(validator.choices)
    return None


def _pattern(field: fields.Field) -> re.Pattern[str] | None:
    for validator in field.validators:
        if isinstance(validator, validate.Regexp):
            return validator.regex
    return None


def shaped(schema: type[Schema] | None, names: Names) -> st.SearchStrategy[dict[str, Any]]:
    """A payload the schema loads: every required field, some optional ones."""
    if schema is None:
        return st.just({})
    required, optional = {}, {}
    for name, field in schema().fields.items():
        value = _value(name, field, names)
        (required if field.required else optional)[field.data_key or name] = value
    return st.fixed_dictionaries(required, optional=optional)


def _value(name: str, field: fields.Field, names: Names) -> st.SearchStrategy[Any]:
    value: st.SearchStrategy[Any]
    if isinstance(field, fields.Nested):
        value = shaped(type(field.schema), names)
    elif isinstance(field, fields.List):
        low, high = _bounds(field, validate.Length)
        value = st.lists(_value(name, field.inner, names), min_size=low or 0, max_size=high or 3)
    elif isinstance(field, fields.Boolean):
        value = st.booleans()
    elif isinstance(field, fields.Integer):
        low, high = _bounds(field, validate.Range)
        value = st.integers(low, high)
    elif _choices(field) is not None:
        value = st.sampled_from(_choices(field))
    elif isinstance(field, Text):
        low, high = _bounds(field, validate.Length)
        value = st.text(st.characters(categories=["L", "N"]), min_size=low or 1, max_size=high)
    elif isinstance(field, Party):  # whom a whisper goes to
        value = st.sampled_from([0, 1, 2, 3, 4, 5, "master"])
    elif name in NAMED:
        value = st.sampled_from(names[NAMED[name]])
    elif name == "pad":  # fields.Pad: spaces only
        value = st.integers(0, 64).map(" ".__mul__)
    elif (pattern := _pattern(field)) is not None:  # a key, a hash, a nonce, a salt
        value = st.from_regex(pattern, fullmatch=True)
    else:
        value = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,20}", fullmatch=True)
    return st.one_of(value, st.none()) if field.allow_none else value


# -- malformed by construction --------------------------------------------------------

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
HUGE_TEXT = st.integers(1_000, 200_000).map(lambda n: "x" * n)
DEEP = st.integers(50, 400).map(lambda depth: _nested(depth))
NOT_A_NUMBER = st.one_of(
    st.text(st.characters(categories=["L"]), min_size=1, max_size=10),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.integers(-(10**6), 10**6).map(lambda n: n + 0.5),
)


def _nested(depth: int) -> Any:
    value: Any = "x"
    for level in range(depth):
        value = [value] if level % 2 else {"x": value}
    return value


def _wrong(field: fields.Field) -> st.SearchStrategy[Any]:
    """A value of a type, size or range this field never loads."""
    wrong: list[st.SearchStrategy[Any]] = [DEEP]
    if not field.allow_none:
        wrong.append(st.none())
    if isinstance(field, fields.Nested):
        wrong += [st.integers(), st.text(max_size=10), st.lists(JUNK, max_size=3)]
    elif isinstance(field, fields.List):
        low, high = _bounds(field, validate.Length)
        wrong += [st.integers(), st.text(max_size=10), st.dictionaries(st.text(), JUNK)]
        if high is not None:
            wrong.append(st.lists(JUNK, min_size=high + 1, max_size=high + 3))
    elif isinstance(field, fields.Boolean):
        wrong += [st.integers(), st.text(max_size=10), st.lists(st.booleans(), max_size=2)]
    elif isinstance(field, fields.Integer):
        low, high = _bounds(field, validate.Range)
        wrong += [NOT_A_NUMBER, st.booleans()]
        if high is not None:
            wrong.append(st.integers(min_value=high + 1))
        if low is not None:
            wrong.append(st.integers(max_value=low - 1))
    else:
        wrong += [st.integers(), st.floats(), st.booleans(), st.lists(JUNK, max_size=3)]
        wrong += [HUGE_TEXT, st.text(st.characters(codec="ascii", categories=["Cc"]), min_size=1)]
    return st.one_of(*wrong)


@st.composite
def malformed(draw: st.DrawFn, event: str, names: Names) -> tuple[Any, ...]:
    """The arguments of a message `event` that its schema refuses whoever sends it."""
    schema = SCHEMAS[event]
    shape = draw(
        st.sampled_from(
            ["not_an_object", "extra_field", "extra_argument"]
            + (["wrong_field", "missing_field"] if schema is not None else [])
        )
    )
    if shape == "not_an_object":
        return (draw(JUNK.filter(lambda v: v is not None and not isinstance(v, dict))),)
    good = dict(draw(shaped(schema, names)))
    if shape == "extra_argument":
        return (good, draw(JUNK))
    known = set(schema().fields) if schema is not None else set()
    if shape == "extra_field":
        good[draw(st.text(min_size=1, max_size=30).filter(lambda k: k not in known))] = draw(JUNK)
        return (good,)
    fields_ = schema().fields  # type: ignore[misc]
    if shape == "missing_field":
        required = [n for n, f in fields_.items() if f.required]
        if not required:
            return (draw(JUNK.filter(lambda v: v is not None and not isinstance(v, dict))),)
        good.pop(draw(st.sampled_from(required)), None)
        return (good,)
    name = draw(st.sampled_from(sorted(fields_)))
    good[name] = draw(_wrong(fields_[name]))
    return (good,)


UNKNOWN_EVENTS = st.one_of(
    st.sampled_from(["connect", "disconnect", "message", "welcome", "events", "presence"]),
    st.text(min_size=1, max_size=40),
).filter(lambda name: name not in SCHEMAS)
