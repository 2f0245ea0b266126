"""The field types every payload is built from: ids, typed text, strict numbers and booleans."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from court import text


class WholeMatch(validate.Regexp):
    """A Regexp the whole string must match: with `re.match`, `$` lets a trailing newline in."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


ID = WholeMatch(f"^{text.ID.pattern}$", error="Use lower-case letters, digits, - and _.")
NAME = validate.Length(min=1, max=text.NAME_LIMIT)
DAY = 7 * 24 * 3600
VERSION_MAX = 2**31 - 1
GOLD_MAX = 10_000


# What Text refuses, told to the OpenAPI document too (an ECMA-262 and Python pattern). Lone
# surrogates are refused as well: they are no Unicode characters, so no JSON Schema string.
PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"


class Text(fields.String):
    """A string a player typed: printable Unicode that can be stored and hashed as UTF-8."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={"pattern": PRINTABLE, **kwargs.pop("metadata", {})}, **kwargs)

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


def Id(**kwargs: Any) -> fields.String:
    """The id of a Noble, House, title or village; required unless a default is given."""
    if "load_default" not in kwargs:
        kwargs.setdefault("required", True)
    return fields.String(validate=ID, **kwargs)


# Padding a client adds to a sealed choice so that its request has one length whatever it
# holds (docs/protocol.md, "Padding"): spaces, read and dropped; never part of the command.
PAD_MAX = 1024


def Pad() -> fields.String:
    return fields.String(
        load_default="",
        validate=[validate.Length(max=PAD_MAX), WholeMatch(r"^ *$", error="Pad with spaces only.")],
    )


def Cause() -> Text:
    """Why the host records a fact, as the history will tell it."""
    return Text(required=True, validate=validate.Length(min=1, max=120))
