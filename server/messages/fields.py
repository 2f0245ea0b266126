"""The field types every payload is built from: ids, typed text, strict numbers and booleans,
lists and strings whose maximum length is checked on the raw JSON before anything is built
from them, and field errors capped to a few."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, pre_load, validate

from court.errors import CourtError
from court.model import text

# The maximum length of every string and list a client sends (docs/protocol.md, "Limits").
ID_MAX = 64  # court/model/text.py's ID
TOKEN_MAX = 128  # a seat token is 43 characters
WORD_MAX = 32  # one of a few words: "for", "decoy", "lord", "lady", a kind of death
FIELD_ERRORS_MAX = 10  # field errors told in one answer; `_more` counts the rest
ERROR_CHARS_MAX = 200  # characters of one field error


class WholeMatch(validate.Regexp):
    """A Regexp the whole string must match: with `re.match`, `$` lets a trailing newline in."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


ID = WholeMatch(f"^{text.ID.pattern}$", error="Use lower-case letters, digits, - and _.")
NAME = validate.Length(min=1, max=text.NAME_LIMIT)
GAME_NAME = validate.Length(min=1, max=text.GAME_NAME_LIMIT)
CAUSE = validate.Length(min=1, max=text.CAUSE_LIMIT)
DAY = 7 * 24 * 3600
VERSION_MAX = 2**31 - 1
GOLD_MAX = 10_000


def _range_text(point: int) -> str:
    """A code point in the pattern: escaped below U+0100, else the character itself."""
    return f"\\x{point:02x}" if point < 0x100 else chr(point)


# What Text refuses, told to the OpenAPI document too (an ECMA-262 and Python pattern). Lone
# surrogates are refused as well: they are no Unicode characters, so no JSON Schema string.
PRINTABLE = (
    "^[^"
    + "".join(
        _range_text(a) if a == b else f"{_range_text(a)}-{_range_text(b)}"
        for a, b in text.refused_ranges()
    )
    + "]*$"
)


class LengthFirst(fields.Field):
    """A field whose Length validators run on the raw value before it is deserialized: an
    oversized list is refused with one error before any of its items is built, a string
    before any pattern reads it."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, (str, list)):
            for check in self.validators:
                if isinstance(check, validate.Length):
                    check(value)
        return super()._deserialize(value, attr, data, **kwargs)


class String(LengthFirst, fields.String):
    """A string of at most `max_length` characters (and whatever else `validate` asks)."""

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        checks = kwargs.pop("validate", None)
        given = [] if checks is None else checks if isinstance(checks, list) else [checks]
        if not any(isinstance(c, validate.Length) for c in given):
            given.insert(0, validate.Length(max=max_length))
        super().__init__(validate=given, **kwargs)


class List(LengthFirst, fields.List):
    """A list of at most `max_items` items, refused whole, with one error, when longer."""

    def __init__(
        self, inner: fields.Field, *, max_items: int, min_items: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(inner, validate=validate.Length(min=min_items, max=max_items), **kwargs)


def Choice(choices: list[str], **kwargs: Any) -> String:
    """One of a few words."""
    return String(
        max_length=WORD_MAX,
        validate=[validate.Length(max=WORD_MAX), validate.OneOf(choices)],
        **kwargs,
    )


class Shape(Schema):
    """A payload's schema: an object with many more keys than the schema has fields is
    refused with one error, not one per unknown key (a few unknown keys are each named)."""

    @pre_load
    def _few_keys(self, data: Any, **kwargs: Any) -> Any:
        most = len(self.load_fields)
        if isinstance(data, dict) and len(data) > most + FIELD_ERRORS_MAX:
            raise ValidationError(f"Send at most {most} fields.", "_schema")
        return data


def capped(messages: Any) -> dict[str, Any]:
    """Field errors as told to a client: at most FIELD_ERRORS_MAX of them, each of at most
    ERROR_CHARS_MAX characters; `_more` says how many were left out."""
    found = messages if isinstance(messages, dict) else {"_payload": messages}
    budget = [FIELD_ERRORS_MAX, 0]  # errors still to tell, errors left out
    told = _cap(found, budget)
    if budget[1]:
        told["_more"] = [f"and {budget[1]} more errors"]
    return told


def _cap(messages: Any, budget: list[int]) -> Any:
    if isinstance(messages, dict):
        kept = {}
        for key, value in messages.items():
            inner = _cap(value, budget)
            if inner:
                kept[str(key)[:ERROR_CHARS_MAX]] = inner
        return kept
    if isinstance(messages, list):
        if any(isinstance(item, (dict, list)) for item in messages):
            return [_cap(item, budget) for item in messages]
        room = min(len(messages), budget[0])
        budget[0] -= room
        budget[1] += len(messages) - room
        return [str(m)[:ERROR_CHARS_MAX] for m in messages[:room]]
    if budget[0] <= 0:
        budget[1] += 1
        return None
    budget[0] -= 1
    return str(messages)[:ERROR_CHARS_MAX]


class Text(String):
    """A string a player typed: printable Unicode that can be stored and hashed as UTF-8."""

    def __init__(self, *, max_length: int = text.NAME_LIMIT, **kwargs: Any) -> None:
        metadata = {"pattern": PRINTABLE, **kwargs.pop("metadata", {})}
        super().__init__(max_length=max_length, metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        typed = super()._deserialize(value, attr, data, **kwargs)
        problem = text.unprintable(typed)
        if problem is not None:
            raise ValidationError(f"This text cannot be stored as typed: {problem}.")
        return typed


def Int(**kwargs: Any) -> fields.Integer:
    """A whole number: 3.5 or "3" is refused, not rounded."""
    return fields.Integer(strict=True, **kwargs)


class Bool(fields.Boolean):
    """true or false: 1, "yes" or "on" are refused, as the OpenAPI document says."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def Id(**kwargs: Any) -> String:
    """The id of a Noble, House, title or village; required unless a default is given."""
    if "load_default" not in kwargs:
        kwargs.setdefault("required", True)
    return String(max_length=ID_MAX, validate=[validate.Length(max=ID_MAX), ID], **kwargs)


# Padding a client adds to a sealed choice so that its request has one length whatever it
# holds (docs/protocol.md, "Padding"): spaces, read and dropped; never part of the command.
PAD_MAX = 1024


def Pad() -> String:
    return String(
        max_length=PAD_MAX,
        load_default="",
        validate=WholeMatch(r"^ *$", error="Pad with spaces only."),
    )


def GameName(**kwargs: Any) -> Text:
    """A game's name as its host types it (court/model/text.py trims it and says what it
    refuses)."""
    return Text(max_length=text.GAME_NAME_LIMIT, validate=GAME_NAME, **kwargs)


def Cause() -> Text:
    """Why the host records a fact, as the history will tell it."""
    return Text(required=True, max_length=text.CAUSE_LIMIT, validate=CAUSE)


SALT = WholeMatch(r"^[0-9a-f]{32}$", error="A salt is 32 lower-case hexadecimal digits.")


def unopened(sentence: str) -> CourtError:
    """A sealed choice whose salts and commitments do not go together: refused as the engine
    refuses openings that do not open what was signed, not as a payload of the wrong shape."""
    return CourtError("bad_commitment", sentence)


def Salt() -> String:
    """A sealed choice's salt, drawn by the client that signs it (32 hexadecimal digits)."""
    return String(max_length=32, validate=SALT, load_default=None)
