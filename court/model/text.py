"""What the court accepts as text: ids, names and causes, checked the same way when a player
types them, when the engine records them and when an imported log is verified."""

from __future__ import annotations

import re
import unicodedata

from court.errors import CourtError

NAME_LIMIT = 40
# A game's name, chosen by its host: shown in titles, lists, notices and the CLI.
GAME_NAME_LIMIT = 60
CAUSE_LIMIT = 120
# Game, House, title, village and Noble ids: lower-case letters, digits, - and _ (the API's
# pattern too, server/http/schemas.py).
ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# A Noble a Court Event brings into play is named in kebab-case ("rickon-stark").
NOBLE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
NOBLE_ID_LIMIT = 64


# Letters and symbols that draw nothing: a name of them looks empty or like another's.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")
# Combining marks one letter may carry: enough for every script, not enough to stack
# marks over the neighbouring lines.
MARKS_PER_LETTER = 4


# Marks and overrides that turn the text around on screen: "Ann\u202eevE" reads "AnnEve".
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _spelled(c: str) -> str:
    name = unicodedata.name(c, "")
    return f"U+{ord(c):04X} {name}" if name else f"U+{ord(c):04X}"


def unprintable(text: str) -> str | None:
    """Why the text cannot be stored and shown as typed, or None: control characters (NUL
    among them), invisible format characters (zero-width spaces, joiners, the byte-order
    mark), bidirectional overrides and isolates (which turn the text around on screen) and
    lone surrogates are refused."""
    for c in text:
        category = unicodedata.category(c)
        if category == "Cc":
            return f"it holds a control character ({_spelled(c)})"
        if category == "Cf" or c in BLANK_LOOKING:
            kind = "changes the direction of the text" if c in BIDI else "is invisible"
            return f"it holds a character that {kind} ({_spelled(c)})"
        if category == "Cs":
            return "it is not valid Unicode"
    return None


def refused_ranges(limit: int = 0xFFFF) -> list[tuple[int, int]]:
    """The code points up to `limit` that `unprintable` refuses, as (first, last) ranges
    (the API's pattern lists those of the Basic Multilingual Plane; lone surrogates, which
    no JSON text can carry, are left out)."""
    ranges: list[tuple[int, int]] = []
    for point in range(limit + 1):
        c = chr(point)
        if c in BLANK_LOOKING or unicodedata.category(c) in ("Cc", "Cf"):
            if ranges and ranges[-1][1] == point - 1:
                ranges[-1] = (ranges[-1][0], point)
            else:
                ranges.append((point, point))
    return ranges


def clean_name(
    raw: str, what: str = "A name", *, limit: int = NAME_LIMIT, code: str = "bad_name"
) -> str:
    """A player's, host's or Noble's name (or, with its own limit, a game's): NFC-normalised,
    spaces collapsed, 1 to 40 printable characters with at least one that shows, and no pile
    of combining marks."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not 1 <= len(name) <= limit:
        raise CourtError(code, f"{what} has 1 to {limit} characters.")
    problem = unprintable(name) or _marks_problem(name)
    if problem is not None:
        raise CourtError(code, f"{what} cannot be stored as typed: {problem}.")
    return name


def clean_game_name(raw: str) -> str:
    """A game's name as its host types it: 1 to 60 printable characters, trimmed; a line
    break or a tab inside is refused rather than quietly made a space."""
    problem = unprintable(raw.strip())
    if problem is not None:
        raise CourtError("bad_game_name", f"A game's name cannot be stored as typed: {problem}.")
    return clean_name(raw, "A game's name", limit=GAME_NAME_LIMIT, code="bad_game_name")


def _marks_problem(name: str) -> str | None:
    if unicodedata.combining(name[0]) or unicodedata.category(name[0]).startswith("M"):
        return "it starts with a mark that belongs on a letter"
    run = 0
    for c in name:
        run = run + 1 if unicodedata.category(c).startswith("M") else 0
        if run > MARKS_PER_LETTER:
            return f"a letter carries more than {MARKS_PER_LETTER} marks"
    return None


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
