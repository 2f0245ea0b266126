"""Game setup: create a game, take and leave seats, start (R-1.1, R-1.2, R-2.2)."""

from __future__ import annotations

import copy
from typing import Any

from court.commands import (
    Actor,
    ChangeListing,
    CreateGame,
    JoinSeat,
    LeaveSeat,
    RenameGame,
    StartGame,
)
from court.decide.guards import require_host, require_seat, require_status
from court.decide.seats import require_host_stays
from court.errors import CourtError, NotAllowed
from court.events import (
    Event,
    GameCreated,
    GameListed,
    GameRenamed,
    GameStarted,
    GameUnlisted,
    RoundStarted,
    SeatJoined,
    SeatLeft,
)
from court.ids import Seat
from court.model import dice, invites
from court.model.profile import LAST_ROUND_MAX
from court.model.ruleset import Ruleset
from court.model.text import clean_game_name, clean_name
from court.state import CourtState, GameStatus

MIN_PLAYERS, MAX_PLAYERS = 3, 6
# What a game's clocks and host role may be given, even from a profile that names none.
_ANY_PROFILE = {
    "clocks": {"candidacy", "ballot", "decree", "title_choice", "purchase", "increment"},
    "host_role": {"takeover_after"},
    "table_votes": {"replace_after"},
}


def create_game(state: CourtState, cmd: CreateGame, actor: Actor) -> tuple[Event, ...]:
    if state.status is not GameStatus.NEW:
        raise CourtError("game_exists", "A game with this id already exists.")
    ruleset = _effective_ruleset(cmd)
    profile = ruleset["profile"]
    low = max(MIN_PLAYERS, profile["players"]["min"])
    high = min(MAX_PLAYERS, profile["players"]["max"])
    if not low <= cmd.players <= high:
        raise CourtError(
            "bad_player_count",
            f"A game has {low} to {high} players (R-1.1); {cmd.players} was asked for.",
        )
    first = profile["players"]["first_player_seat"]
    if not 0 <= first < cmd.players:
        raise CourtError(
            "bad_first_player",
            f"The First Player sits at a place from 0 to {cmd.players - 1} of the seat order"
            " (R-1.1).",
        )
    if len(Ruleset.from_dict(ruleset).houses) < cmd.players:
        raise CourtError("roster_too_small", "The roster has fewer Houses than players.")
    master = None if cmd.game_master_name is None else clean_name(cmd.game_master_name)
    name = None if cmd.name is None else clean_game_name(cmd.name)
    if (master is None) != (cmd.game_master_token_sha256 is None):
        raise CourtError("bad_game_master", "A game master needs both a name and a token.")
    return (
        GameCreated(
            game_id=cmd.game_id,
            ruleset=ruleset,
            players=cmd.players,
            host_name=clean_name(cmd.host_name),
            dice_seed_sha256=dice.commitment(cmd.dice_seed),
            host_token_sha256=cmd.host_token_sha256,
            dice_seed=cmd.dice_seed,
            game_master_name=master,
            game_master_token_sha256=cmd.game_master_token_sha256,
            listed=cmd.listed,
            invite_sha256=invites.digest(invites.secret(cmd.dice_seed)),
            name=name,
        ),
    )


def _effective_ruleset(cmd: CreateGame) -> dict[str, Any]:
    """The ruleset with the host's choices of variants, deadlines, clocks, the host role's
    takeover time, the First Player and the last round applied."""
    ruleset = copy.deepcopy(cmd.ruleset)
    profile = ruleset["profile"]
    sections = (
        ("variants", cmd.variants),
        ("deadlines", cmd.deadlines),
        ("clocks", cmd.clocks),
        ("host_role", cmd.host_role),
        ("table_votes", cmd.table_votes),
    )
    for section, choices in sections:
        known = profile.setdefault(section, {})
        unknown = sorted(set(choices) - set(known) - _ANY_PROFILE.get(section, set()))
        if unknown:
            raise CourtError(f"unknown_{section}", f"Unknown {section}: {', '.join(unknown)}.")
        known.update(choices)
    if any(v < 0 for v in profile["deadlines"].values()):
        raise CourtError("bad_deadline", "A step deadline cannot be negative (R-4.3).")
    if any(v < 0 for v in profile["clocks"].values()):
        raise CourtError("bad_clock", "A time bank cannot be negative (R-4.3).")
    if any(v < 0 for v in (*profile["host_role"].values(), *profile["table_votes"].values())):
        raise CourtError("bad_takeover_time", "An absence cannot last negative seconds.")
    if cmd.first_player_seat is not None:
        profile["players"]["first_player_seat"] = cmd.first_player_seat
    if cmd.last_round is not None:
        if not 0 <= cmd.last_round <= LAST_ROUND_MAX:
            raise CourtError(
                "bad_last_round",
                f"The last round is a round from 1 to {LAST_ROUND_MAX}, or 0 for none (R-4.8); "
                f"asked for {cmd.last_round}: choose one from 0 to {LAST_ROUND_MAX}.",
            )
        profile["victory"]["last_round"] = cmd.last_round
    try:
        Ruleset.from_dict(ruleset)
    except (KeyError, TypeError, ValueError) as exc:
        raise CourtError("bad_ruleset", f"The rules profile cannot be read: {exc}.") from None
    return ruleset


def join_seat(state: CourtState, cmd: JoinSeat, actor: Actor) -> tuple[Event, ...]:
    require_status(state, GameStatus.LOBBY)
    if actor.seat is not None:
        raise CourtError("already_seated", "You already hold a seat in this game.")
    if actor.master:
        raise NotAllowed(
            "game_master_seat", "The game master records facts (section 9) and takes no seat."
        )
    if len(state.seats) >= state.players:
        raise CourtError("game_full", f"All {state.players} seats are taken.")
    if not actor.host:
        _require_invite(state, cmd.invite)
    card = state.ruleset.house(cmd.house)
    if card is None:
        raise CourtError("unknown_house", f"There is no House {cmd.house!r} in this game's roster.")
    if state.seat_of_house(cmd.house) is not None:
        raise CourtError("house_taken", f"{card.name} is already played by someone else.")
    if any(s.token_sha256 == cmd.token_sha256 for s in state.seats.values()):
        raise CourtError("token_reused", "This seat token is already in use.")
    return (
        SeatJoined(
            seat=Seat(state.joins),
            house=cmd.house,
            player_name=clean_name(cmd.player_name),
            host=actor.host,
            token_sha256=cmd.token_sha256,
        ),
    )


def _require_invite(state: CourtState, invite: str | None) -> None:
    """An unlisted game is joined through the host's invite link: it is private."""
    if state.listed:
        return
    if invite is None:
        raise NotAllowed(
            "invite_required",
            "This game is private: join it through the invite link the host shares.",
        )
    if not invites.opens(state, invite):
        raise NotAllowed(
            "bad_invite",
            "This invite link does not open this game: ask the host to send it again.",
        )


def change_listing(state: CourtState, cmd: ChangeListing, actor: Actor) -> tuple[Event, ...]:
    """The host lists the game on the front page or takes it off, while in the lobby."""
    require_host(actor, "list the game or take it off the front page")
    require_status(state, GameStatus.LOBBY)
    if cmd.listed == state.listed:
        where = "on" if state.listed else "off"
        raise CourtError(
            f"already_{'listed' if state.listed else 'unlisted'}",
            f"The game is already {where} the front page.",
        )
    if not cmd.listed and state.invite_sha256 is None:
        raise CourtError(
            "no_invite",
            "This game was created before invite links: it stays on the front page.",
        )
    return (GameListed(),) if cmd.listed else (GameUnlisted(),)


def rename_game(state: CourtState, cmd: RenameGame, actor: Actor) -> tuple[Event, ...]:
    """The host gives the game a new name, at any time of it."""
    require_host(actor, "rename the game")
    require_status(state, GameStatus.LOBBY, GameStatus.PLAYING, GameStatus.ENDED)
    name = clean_game_name(cmd.name)
    if name == state.name:
        raise CourtError("same_game_name", f"The game is already called {name}.")
    return (GameRenamed(name=name, old_name=state.name),)


def leave_seat(state: CourtState, cmd: LeaveSeat, actor: Actor) -> tuple[Event, ...]:
    seat = require_seat(actor, "leave it")
    require_status(state, GameStatus.LOBBY)
    require_host_stays(state, seat)
    info = state.seats[seat]
    return (SeatLeft(seat=seat, house=info.house, player_name=info.player_name),)


def start_game(state: CourtState, cmd: StartGame, actor: Actor, now: float) -> tuple[Event, ...]:
    require_host(actor, "start the game")
    require_status(state, GameStatus.LOBBY)
    if len(state.seats) < state.players:
        raise CourtError(
            "seats_not_filled",
            f"The game needs {state.players} players; {len(state.seats)} have joined.",
        )
    order = tuple(sorted(state.seats)) if cmd.seat_order is None else cmd.seat_order
    if sorted(order) != sorted(state.seats):
        raise CourtError(
            "bad_seat_order", "The seat order must name every seat exactly once (R-1.1)."
        )
    first = order[state.ruleset.profile.players.first_player_seat]
    return (
        GameStarted(seat_order=order, first_player=first, at=now),
        RoundStarted(round=1, first_player=first),
    )
