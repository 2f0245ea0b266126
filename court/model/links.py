"""The tokens a person's key handed out in a game (server/service/seat_keys.py), as the court holds
them: each
link stands for whatever the token it was made from stands for now, until the key drops it or
that token stands for nothing. Only digests are kept; the tokens are the key's."""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from enum import StrEnum

from court.ids import Seat


class LinkEnd(StrEnum):
    """Why a key let a link go."""

    REVOKED = "revoked"  # the key was revoked
    REPLACED = "replaced"  # a new key gathered one of its seats


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLink:
    """Link `number` of the game, made from the token with the digest `of_sha256` (a seat's,
    the host's, the game master's or another link) for `seat` (None: the role of a host without
    a seat, or of the game master)."""

    number: int
    of_sha256: str
    seat: Seat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLinks:
    """The links standing, by their tokens' digests, and how many were ever added (a link's
    number is never given twice)."""

    by_token: dict[str, SeatLink] = field(default_factory=dict)
    added: int = 0

    def root(self, token_sha256: str) -> str:
        """The token a link was made from, followed back to one that is no link: a token of
        the game's own, or one a dropped link had. Any other digest is its own root."""
        seen = 0
        while token_sha256 in self.by_token and seen <= len(self.by_token):
            token_sha256, seen = self.by_token[token_sha256].of_sha256, seen + 1
        return token_sha256

    def numbered(self, number: int) -> tuple[str, SeatLink] | None:
        return next(((t, k) for t, k in self.by_token.items() if k.number == number), None)

    def standing_on(self, tokens: Set[str]) -> SeatLinks:
        """The links whose roots are among `tokens` (what opens something in the game now):
        a link whose token was replaced, given up or dropped goes, and every link made from
        it with it."""
        kept = {t: k for t, k in self.by_token.items() if self.root(t) in tokens}
        if len(kept) == len(self.by_token):
            return self
        return SeatLinks(by_token=kept, added=self.added)

    def problems(self, tokens: Set[str]) -> list[str]:
        """What the links may not be, `tokens` being what the game opens now: a link standing
        on nothing, a link with a token of the game's own, a number given twice or never."""
        found = [
            f"link {k.number} stands on a token that opens nothing in this game"
            for t, k in self.by_token.items()
            if self.root(t) not in tokens
        ]
        if set(self.by_token) & tokens:
            found.append("a key's link has the token of a seat or a role of the game")
        numbers = [k.number for k in self.by_token.values()]
        if len(set(numbers)) != len(numbers) or not all(1 <= n <= self.added for n in numbers):
            found.append(f"the links' numbers {sorted(numbers)} repeat or pass {self.added}")
        return found
