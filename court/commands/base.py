"""Who sends a command: the actor a seat token stands for."""

from __future__ import annotations

from dataclasses import dataclass, field

from court.ids import Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Actor:
    """Who sends a command: a seat, the host, both, the game master named at creation (who
    records facts, section 9), or a spectator (none of them)."""

    seat: Seat | None = None
    host: bool = False
    master: bool = False
    # The server's bot playing `seat` while its player is gone (court/options/bot.py); never a
    # token's.
    bot: bool = False
    # The digest of the token this actor was found by, when one was: whoever keeps an actor
    # asks the game again what the token stands for now (a seat handed to a new token, the
    # host role moved); never compared, never shown.
    token_sha256: str | None = field(default=None, compare=False, repr=False)

    @property
    def spectator(self) -> bool:
        return self.seat is None and not self.host and not self.master

    @property
    def holder(self) -> str | None:
        """Whose keys sign the actor's moves (court/model/devices.py): his seat's (a host with
        a seat signs as that seat), else the game master's or the seatless host's; a spectator
        signs nothing."""
        if self.seat is not None:
            return f"seat:{self.seat}"
        if self.master:
            return "master"
        return "host" if self.host else None

    @property
    def recorder(self) -> bool:
        """May record what happened outside the court (section 9)."""
        return self.host or self.master


SPECTATOR = Actor()
