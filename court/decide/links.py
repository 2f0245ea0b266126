"""The tokens a person's key hands out (court/model/links.py): a link added for the token the key
gathered, standing for what that token stands for, and a link dropped when the key lets it go.
Both are the key service's (server/service/seat_keys.py), in any game that was created, ended or
not: a key gathers the seats of ended games too."""

from __future__ import annotations

from court.commands import Actor, AddSeatLink, DropSeatLink
from court.decide.guards import require_status
from court.errors import BadToken, CourtError
from court.events import Event, SeatLinkAdded, SeatLinkDropped
from court.model.links import LinkEnd
from court.model.tokens import actor_of, tokens_in_use
from court.state import CourtState, GameStatus

DIGEST_LENGTH = 64
OPEN = (GameStatus.LOBBY, GameStatus.PLAYING, GameStatus.ENDED)


def add_seat_link(state: CourtState, cmd: AddSeatLink, actor: Actor) -> tuple[Event, ...]:
    """The sender's own token, as he sent it, is what the link stands on: a spectator, or an
    actor the game does not know by a token, gives a key nothing."""
    require_status(state, *OPEN)
    of = actor.token_sha256
    if of is None or actor.spectator or actor_of(state, of) is None:
        raise BadToken("bad_token", "Only a token that opens a seat or a role here gives a link.")
    link = cmd.link_sha256
    if len(link) != DIGEST_LENGTH or link in tokens_in_use(state):
        raise CourtError("token_reused", "This link's token is already in use.")
    return (
        SeatLinkAdded(
            link=state.links.added + 1,
            seat=actor.seat,
            master=actor.master,
            link_sha256=link,
            of_sha256=of,
        ),
    )


def drop_seat_link(state: CourtState, cmd: DropSeatLink) -> tuple[Event, ...]:
    require_status(state, *OPEN)
    if cmd.reason not in set(LinkEnd):
        raise CourtError("bad_reason", f"A link is not dropped for {cmd.reason!r:.40}.")
    found = state.links.numbered(cmd.link)
    if found is None:
        raise CourtError(
            "no_seat_link",
            f"Link {cmd.link} opens nothing in this game: dropped already, or its seat was "
            "handed on.",
        )
    return (SeatLinkDropped(link=cmd.link, seat=found[1].seat, reason=cmd.reason),)
