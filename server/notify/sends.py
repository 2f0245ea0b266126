"""What the court sends at a request to an address from outside the game (a mail with a
verification link, a webhook's test post), let through only within limits over an hour kept in
the database (server/store/sends.py): the requests themselves cannot make the court a cannon
aimed at a stranger. Where a send went is counted by its HMAC under the instance secret: the
table names no address and no URL, and nobody without the secret can test one against it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from server.store.sends import Limit, Send, SendLedger

MINUTE_MS = 60_000
HOUR_MS = 3_600_000


class SendGate:
    """Reserves a send against limits, by a digest of where it goes."""

    def __init__(self, ledger: SendLedger, mac: Callable[[bytes], str]) -> None:
        self.ledger = ledger
        self.mac = mac  # the instance secret's HMAC-SHA256, hexadecimal

    def reserve(
        self,
        kind: str,
        game_id: str,
        seat: int | None,
        target: str,
        now_ms: int,
        limits: Sequence[Limit],
    ) -> Limit | None:
        """None, and the send counted from now on; or the first limit it would pass, and
        nothing counted."""
        digest = self.mac(f"{kind}\0{target}".encode())
        send = Send(kind=kind, game_id=game_id, seat=seat, target=digest)
        return self.ledger.reserve(send, now_ms, limits)
