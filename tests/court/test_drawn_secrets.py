"""The secrets a command type declares and takes drawn (court/commands/secrets.py): a command
sent without them names each one to draw, in order; one sent with them (a signed move's,
committed to by the device that drew them) names none, and keeps its own."""

from __future__ import annotations

from court.commands import (
    AddSeatLink,
    BotMove,
    CreateGame,
    Drawn,
    HandSeat,
    JoinSeat,
    MarkerChoice,
    Pass,
    PlaceBallot,
    PlaceBid,
    Secret,
    digest,
    needs,
    supplied,
)
from court.ids import HouseId, NobleId, Seat

ROBB = NobleId("robb-stark")


def drawn(*values: tuple[Secret, str]) -> Drawn:
    return Drawn(values)


def test_an_unsalted_ballot_needs_a_salt_for_each_marker_and_takes_them_in_order() -> None:
    """Given a ballot of two markers sent without salts (R-7.1 step 3: the server draws
    them), when its secrets are drawn, then each marker gets its own salt, in order."""
    ballot = PlaceBallot(
        markers=(
            MarkerChoice(kind="for", candidate=ROBB),
            MarkerChoice(kind="decoy", candidate=ROBB),
        )
    )
    assert needs(ballot) == (Secret.SALT, Secret.SALT)
    salted = supplied(ballot, drawn((Secret.SALT, "s1"), (Secret.SALT, "s2")))
    assert isinstance(salted, PlaceBallot)
    assert [m.salt for m in salted.markers] == ["s1", "s2"]


def test_a_salted_ballot_or_bid_needs_nothing_and_keeps_its_own_salts() -> None:
    """Given a ballot and a bid whose salts the player's device drew and committed to (R-7.1,
    R-4.6), then nothing is drawn for them and supplying nothing changes nothing."""
    ballot = PlaceBallot(markers=(MarkerChoice(kind="for", candidate=ROBB, salt="mine"),))
    bid = PlaceBid(amount=3, salt="mine", commitment="c" * 64)
    assert needs(ballot) == () and needs(bid) == ()
    assert supplied(ballot, Drawn()) == ballot and supplied(bid, Drawn()) == bid


def test_an_unsalted_bid_needs_one_salt() -> None:
    """Given a sealed bid sent without its salt (R-4.6), then one salt is drawn for it."""
    bid = PlaceBid(amount=3)
    assert needs(bid) == (Secret.SALT,)
    assert supplied(bid, drawn((Secret.SALT, "s"))) == PlaceBid(amount=3, salt="s")


def test_a_new_seat_token_is_drawn_and_only_its_digest_kept() -> None:
    """Given a join, a hand-over and a key's link without their tokens, then each needs one
    token, and keeps its digest alone."""
    for command, field in (
        (JoinSeat(house=HouseId("stark"), player_name="Ann"), "token_sha256"),
        (HandSeat(seat=Seat(1)), "token_sha256"),
        (AddSeatLink(), "link_sha256"),
    ):
        assert needs(command) == (Secret.TOKEN,)
        given = supplied(command, drawn((Secret.TOKEN, "t")))
        assert getattr(given, field) == digest("t")
        assert needs(given) == ()


def test_a_new_game_draws_its_host_token_id_and_dice_seed_and_its_masters_token() -> None:
    """Given a new game with a game master named (section 9), then the master's token, the
    host's token, the game's id and its dice seed are drawn, in that order."""
    game = CreateGame(ruleset={}, players=3, host_name="Ann", game_master_name="Maester")
    assert needs(game) == (Secret.MASTER_TOKEN, Secret.TOKEN, Secret.GAME_ID, Secret.DICE_SEED)
    made = supplied(
        game,
        drawn(
            (Secret.MASTER_TOKEN, "m"),
            (Secret.TOKEN, "h"),
            (Secret.GAME_ID, "g"),
            (Secret.DICE_SEED, "d"),
        ),
    )
    assert isinstance(made, CreateGame)
    assert (made.game_id, made.dice_seed) == ("g", "d")
    assert made.host_token_sha256 == digest("h")
    assert made.game_master_token_sha256 == digest("m")


def test_a_bots_move_draws_what_its_move_needs_and_a_plain_command_nothing() -> None:
    """Given the bot's ballot (R-7.1: its salts are the server's too) and a pass, then the
    bot's move needs its ballot's salts and the pass needs nothing."""
    ballot = PlaceBallot(markers=(MarkerChoice(kind="for", candidate=ROBB),))
    move = BotMove(move=ballot, chosen_at=7)
    assert needs(move) == (Secret.SALT,)
    given = supplied(move, drawn((Secret.SALT, "s")))
    assert isinstance(given, BotMove) and isinstance(given.move, PlaceBallot)
    assert given.move.markers[0].salt == "s"
    assert needs(Pass()) == ()
