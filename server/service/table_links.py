"""The new link a table's vote hands a seat to (vote_replace). Its token is made from the
instance secret, the game, the seat and the version of the hand-over, so that the server can
make it again for every seat whose vote handed it on, until its new player opens it, and keeps
it nowhere; it is shown only while it still hashes to the token the log gives the seat."""

from __future__ import annotations

import base64
from typing import Any

from court.ids import Seat
from court.state import CourtState
from server.keys import InstanceSecret
from server.service.ports import HostPresence, token_digest


def link_token(secret: InstanceSecret, game_id: str, seat: Seat, handed_at: int) -> str:
    """The token of the seat's link handed over at version `handed_at`: 43 characters of
    base64url, as a drawn token."""
    mac = secret.mac(f"table link\0{game_id}\0{seat}\0{handed_at}".encode())
    return base64.urlsafe_b64encode(bytes.fromhex(mac)).rstrip(b"=").decode()


def opened(presence: HostPresence, game_id: str, seat: Seat, handed: float) -> bool:
    """Whether the seat has had a connection since it was handed on at `handed`: one is open,
    or the last closed after it. A book that started after it cannot tell, and says yes: the
    link is then shown no more, which costs a voter nothing the new player lacks."""
    since = presence.host_away_since(game_id, seat, handed)
    return since is None or since > handed


def voted_links(
    state: CourtState,
    game_id: str,
    voter: Seat | None,
    secret: InstanceSecret,
    presence: HostPresence | None,
) -> list[dict[str, Any]]:
    """The links of the seats `voter`'s vote helped hand on whose new player has not come."""
    links: list[dict[str, Any]] = []
    if voter is None or presence is None:
        return links
    for seat, voters in sorted(state.table.replaced_by.items()):
        info = state.seats.get(seat)
        handed = state.table.replaced_at.get(seat)
        if voter not in voters or info is None or not info.handed_at or handed is None:
            continue
        if opened(presence, game_id, seat, handed):
            continue
        token = link_token(secret, game_id, seat, info.handed_at)
        if token_digest(token) == info.token_sha256:
            links.append({"seat": seat, "token": token})
    return links
