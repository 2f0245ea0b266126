"""Who a token stands for: the host, the game master, a seat, or a link a person's key handed
out (court/model/links.py), which stands for what the token it was made from stands for now. Only
the log decides: a token is known here by its digest alone."""

from __future__ import annotations

import dataclasses

from court.commands import Actor
from court.state import CourtState


def own_tokens(state: CourtState) -> set[str]:
    """Every token digest the game itself gave (the host's, the game master's, each seat's and
    a former host's) that opens something now: what the keys' links stand on."""
    found = {state.host_token_sha256, state.game_master_token_sha256 or ""}
    for info in state.seats.values():
        found |= {info.token_sha256, info.former_host_token_sha256}
    return found - {""}


def tokens_in_use(state: CourtState) -> set[str]:
    """Every token digest that opens something in this game, the keys' links with them."""
    return own_tokens(state) | set(state.links.by_token)


def actor_of(state: CourtState, token_sha256: str) -> Actor | None:
    """Who holds the token with this digest: the host (with the host's seat, once taken), the
    game master, a seat (with the host's powers if it holds the host role); a link, what the
    token it was made from stands for; None for a token of nobody at this table, or one that
    was replaced, removed or dropped."""
    root = state.links.root(token_sha256)
    actor = _holder(state, root)
    if actor is None or root == token_sha256:
        return actor
    return dataclasses.replace(actor, token_sha256=token_sha256)


def _holder(state: CourtState, token_sha256: str) -> Actor | None:
    if state.host_token_sha256 and token_sha256 == state.host_token_sha256:
        return Actor(seat=state.host_seat(), host=True, token_sha256=token_sha256)
    if token_sha256 == state.game_master_token_sha256:
        return Actor(master=True, token_sha256=token_sha256)
    for info in state.seats.values():
        if token_sha256 in (info.token_sha256, info.former_host_token_sha256 or None):
            return Actor(seat=info.seat, host=info.host, token_sha256=token_sha256)
    return None


def still_acting(state: CourtState, actor: Actor) -> Actor | None:
    """`actor` as the game now stands. An actor found by its token is what the token stands
    for now: nothing once the seat was given up, handed to a new token or removed, or the
    link dropped; the host's powers go with the host role. Without a token: a seat given up
    since acts no more (a seat's number is never given again, so a seat absent now never
    comes back), and the host who held it stays the host without a seat; None when nothing of
    the actor is left."""
    if actor.token_sha256 is not None:
        return actor_of(state, actor.token_sha256)
    if actor.seat is None or actor.seat in state.seats:
        return actor
    return Actor(host=True) if actor.host else None


def holders(state: CourtState) -> frozenset[str]:
    """Who may hold devices' keys now (court/model/devices.py): each seat, the host while he holds
    no seat, and the game master."""
    found = {f"seat:{seat}" for seat in state.seats}
    if state.host_token_sha256 and state.host_seat() is None:
        found.add("host")
    if state.game_master_token_sha256:
        found.add("master")
    return frozenset(found)
