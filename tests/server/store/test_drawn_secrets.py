"""The service's one `handle` draws the secrets a command declares from its secret source,
once, and tells the sender the new token in the outcome; a command that came with its secrets
gets none drawn."""

from __future__ import annotations

import pytest

from config.rulesdata import load_ruleset
from court.commands import SPECTATOR, Actor, CreateGame, JoinSeat, Secret, digest
from court.ids import HouseId
from court.model.tokens import actor_of
from tests.server.store.conftest import NewDatabase, open_service

pytestmark = pytest.mark.service


class Spying:
    """A secret source that tells what was drawn from it, in order."""

    def __init__(self) -> None:
        self.drawn: list[str] = []

    def _draw(self, kind: str) -> str:
        self.drawn.append(kind)
        return f"{kind}-{len(self.drawn)}"

    def token(self) -> str:
        return self._draw("token")

    def game_id(self) -> str:
        return self._draw("game")

    def seed(self) -> str:
        return self._draw("seed")

    def salt(self) -> str:
        return self._draw("salt")


def test_a_new_game_and_a_join_draw_their_secrets_and_tell_the_tokens(
    new_database: NewDatabase,
) -> None:
    """Given a service, when a game is created with a game master and a seat is joined, then
    the host's and the master's tokens, the id, the seed and the seat's token are drawn from
    the secret source and told in the outcomes; the log keeps the tokens' digests alone."""
    secrets = Spying()
    service, store = open_service(new_database(), secret_source=secrets)
    try:
        create = CreateGame(
            ruleset=load_ruleset(), players=3, host_name="Ann", game_master_name="Maester"
        )
        created = service.handle(None, create, Actor(host=True))
        assert secrets.drawn == ["token", "token", "game", "seed"]
        assert created.state.game_id == "game-3"
        assert created.secrets.one(Secret.MASTER_TOKEN) == "token-1"
        assert created.token == "token-2"
        game_id = created.state.game_id
        joined = service.handle(
            game_id, JoinSeat(house=HouseId("stark"), player_name="Ann"), Actor(host=True)
        )
        assert joined.token == "token-5"
        assert actor_of(joined.state, digest("token-5")) is not None
        assert all("token-" not in str(r.data) for r in (*created.records, *joined.records))
    finally:
        store.close()


def test_a_command_sent_with_its_secrets_gets_none_drawn(new_database: NewDatabase) -> None:
    """Given a join whose token digest is already made, when it is handled, then nothing is
    drawn and the outcome tells no token (the sender has it)."""
    secrets = Spying()
    service, store = open_service(new_database(), secret_source=secrets)
    try:
        create = CreateGame(ruleset=load_ruleset(), players=3, host_name="Ann", listed=True)
        game_id = service.handle(None, create, Actor(host=True)).state.game_id
        drawn = list(secrets.drawn)
        join = JoinSeat(house=HouseId("stark"), player_name="Bob", token_sha256=digest("mine"))
        joined = service.handle(game_id, join, SPECTATOR)
        assert secrets.drawn == drawn
        assert joined.token is None
        assert actor_of(joined.state, digest("mine")) is not None
    finally:
        store.close()
