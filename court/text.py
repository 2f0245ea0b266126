"""What the court accepts as text: ids, names and causes, checked the same way when a player
types them, when the engine records them and when an imported log is verified."""

from __future__ import annotations

import re

from court.errors import CourtError

NAME_LIMIT = 40
CAUSE_LIMIT = 120
# Game, House, title, village and Noble ids: lower-case letters, digits, - and _ (the API's
# pattern too, server/http/schemas.py).
ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# A Noble a Court Event brings into play is named in kebab-case ("rickon-stark").
NOBLE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
NOBLE_ID_LIMIT = 64


def unprintable(text: str) -> str | None:
    """Why the text cannot be stored and shown as typed, or None: control characters (NUL
    among them) and lone surrogates are refused."""
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in text):
        return "it holds control characters"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "it is not valid Unicode"
    return None


def clean_name(raw: str, what: str = "A name") -> str:
    """A player's, host's or Noble's name: spaces collapsed, 1 to 40 printable characters."""
    name = " ".join(raw.split())
    if not 1 <= len(name) <= NAME_LIMIT:
        raise CourtError("bad_name", f"{what} has 1 to {NAME_LIMIT} characters.")
    problem = unprintable(name)
    if problem is not None:
        raise CourtError("bad_name", f"{what} cannot be stored as typed: {problem}.")
    return name


def clean_cause(raw: str) -> str:
    """Every fact names its cause (section 9), in 1 to 120 printable characters."""
    cause = " ".join(raw.split())
    if not 1 <= len(cause) <= CAUSE_LIMIT or unprintable(cause) is not None:
        raise CourtError(
            "bad_cause",
            f"Every fact names its cause in 1 to {CAUSE_LIMIT} printable characters.",
        )
    return cause


def id_problem(text: object, pattern: re.Pattern[str] = ID) -> str | None:
    """Why this is no id of the court, or None."""
    if not isinstance(text, str) or pattern.fullmatch(text) is None or len(text) > 64:
        return f"{text!r:.80} is not an id: lower-case letters, digits, - and _"
    return None
