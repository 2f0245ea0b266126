"""Commands about a title just won or one too many (R-3.2, R-7.6)."""

from __future__ import annotations

from dataclasses import dataclass

from court.ids import NobleId, TitleId


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptTitle:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class RefuseTitle:
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class ResolveTitleOverflow:
    """Pass `title` to Noble `to`, or return it to the board when `to` is None (R-3.2)."""

    title: TitleId
    to: NobleId | None = None


TitleCommand = AcceptTitle | RefuseTitle | ResolveTitleOverflow
