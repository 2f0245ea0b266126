"""R-4.8 [D]: a last round. A profile, or the host at creation, may set the round whose victory
check ends the game (0: none). If nobody has won by then (R-4.7), the House or Houses whose
Nobles hold the most VP win there, allies counted together; a tie names every tied House."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import Actor
from court.decide import decide
from court.errors import CourtError
from court.events import Event, GameEnded, RoundStarted, TitleGranted
from court.evolve import evolve
from court.ids import NobleId, Seat, TitleId
from court.soundness.invariants import violations
from court.state import Alliance, CourtState, GameStatus, Phase
from court.views.made import court_view
from tests.court.given import HOST, Table, create_game, given, seat, started, table_step


def grant(state: CourtState, title: str, noble: str) -> CourtState:
    return evolve(state, TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="test"))


def to_the_victory_check(state: CourtState) -> tuple[CourtState, list[Event]]:
    """A quiet table plays on from phase 2 until the game ends or the next round starts; the
    events of the way there."""
    table = Table()
    table.state = state
    start = state.round
    seen: list[Event] = []
    while table.state.status is GameStatus.PLAYING and table.state.round == start:
        seen += table.add(*table_step(table.state))
    return table.state, seen


def titled(players: int, last_round: int, *grants: tuple[str, str]) -> CourtState:
    """Round 1 of a game whose last round is `last_round`, phase 1 passed, with these titles."""
    state = given(*started(players, victory__last_round=last_round))
    for title, noble in grants:
        state = grant(state, title, noble)
    return state


def test_the_last_round_s_victory_check_ends_the_game_with_the_most_vp() -> None:
    """R-4.8: given a last round of 1 and Stark alone holding a title with VP (the King, 1 VP,
    short of R-4.7's 3), when round 1's victory check comes, then the game ends there, Stark
    the winner, with every seat's standing recorded."""
    state = titled(3, 1, ("king", "robb-stark"))
    ended, events = to_the_victory_check(state)
    game_ended = events[-1]
    assert isinstance(game_ended, GameEnded)
    assert game_ended.how == "last_round" and game_ended.winners == (Seat(0),)
    assert [(s.seat, s.points) for s in game_ended.points] == [(0, 1), (1, 0), (2, 0)]
    assert ended.status is GameStatus.ENDED and ended.winners == (Seat(0),)
    assert violations(ended) == []


def test_a_tie_at_the_top_names_every_tied_house() -> None:
    """R-4.8: Stark (the King) and Lannister (the Hand) hold 1 VP each: both win."""
    state = titled(3, 1, ("king", "robb-stark"), ("hand", "tywin-lannister"))
    _, events = to_the_victory_check(state)
    game_ended = events[-1]
    assert isinstance(game_ended, GameEnded) and game_ended.winners == (Seat(0), Seat(1))


def test_nobody_holding_any_vp_is_a_tie_of_every_house() -> None:
    """R-4.8: the most VP is 0, held by every House: every House is named."""
    _, events = to_the_victory_check(titled(3, 1))
    game_ended = events[-1]
    assert isinstance(game_ended, GameEnded) and game_ended.winners == (0, 1, 2)


@pytest.mark.parametrize(("tyrell_fiefs", "winners"), [(1, (0, 1)), (2, (0, 1, 2))])
def test_allies_count_their_vp_together(tyrell_fiefs: int, winners: tuple[int, ...]) -> None:
    """R-4.8 (R-4.7): Stark and Lannister, allied by marriage, hold 1 VP each, 2 together;
    Tyrell holds `tyrell_fiefs` Fief titles alone: 1 loses to the alliance, 2 ties with it."""
    fiefs = ("fief-highgarden", "fief-sunspear")[:tyrell_fiefs]
    state = titled(
        4,
        1,
        ("king", "robb-stark"),
        ("hand", "tywin-lannister"),
        *((fief, "mace-tyrell") for fief in fiefs),
    )
    alliance = Alliance(
        seats=(Seat(0), Seat(1)), lord=NobleId("robb-stark"), lady=NobleId("cersei-lannister")
    )
    nobles = {
        **state.nobles,
        NobleId("robb-stark"): replace(
            state.nobles[NobleId("robb-stark")], spouse="cersei-lannister"
        ),
        NobleId("cersei-lannister"): replace(
            state.nobles[NobleId("cersei-lannister")], spouse="robb-stark"
        ),
    }
    state = replace(state, alliances=(alliance,), nobles=nobles)
    _, events = to_the_victory_check(state)
    game_ended = events[-1]
    assert isinstance(game_ended, GameEnded) and game_ended.winners == winners


def test_a_victory_at_the_last_round_is_a_victory() -> None:
    """R-4.7 before R-4.8: Stark holds 3 VP at the last round's check: he wins by R-4.7."""
    state = titled(
        3, 1, ("king", "robb-stark"), ("hand", "bran-stark"), ("fief-winterfell", "eddard-stark")
    )
    _, events = to_the_victory_check(state)
    game_ended = events[-1]
    assert isinstance(game_ended, GameEnded) and game_ended.how == "victory"
    assert game_ended.winners == (Seat(0),)


@pytest.mark.parametrize("last_round", [0, 2])
def test_the_game_goes_on_before_its_last_round_and_without_one(last_round: int) -> None:
    """R-4.8: a last round of 2 lets round 1 end as any round does; 0 is no last round."""
    state, events = to_the_victory_check(titled(3, last_round, ("king", "robb-stark")))
    assert state.status is GameStatus.PLAYING and state.round == 2
    assert isinstance(events[-1], RoundStarted) or any(isinstance(e, RoundStarted) for e in events)


def test_the_host_sets_the_last_round_when_he_creates_the_game() -> None:
    """R-4.8: the host's choice at creation is written into the profile of the game's first
    event; a round outside 0 to 99 is refused with a reason."""
    (created,) = decide(given(), create_game(last_round=8), HOST)
    assert created.ruleset["profile"]["victory"]["last_round"] == 8  # type: ignore[attr-defined]
    assert given(created).ruleset.profile.victory.last_round == 8
    for bad in (-1, 100):
        with pytest.raises(CourtError) as refused:
            decide(given(), create_game(last_round=bad), HOST)
        assert refused.value.code == "bad_last_round"
        assert "0 to 99" in refused.value.message


def test_a_game_played_past_its_last_round_breaks_the_invariants() -> None:
    """R-4.8: no game is still being played after its last round's victory check."""
    state = titled(3, 1)
    past = evolve(
        replace(state, phase=Phase.END_OF_ROUND), RoundStarted(round=2, first_player=Seat(1))
    )
    assert any("R-4.8" in v for v in violations(past))


def test_a_game_won_in_phase_8_carries_its_winners_and_standings_in_every_view() -> None:
    """R-4.7 (and R-4.8's page): given Stark holding 3 VP at round 1's victory check, when the
    game ends there, then every viewer's court view carries how it ended, the winner and each
    seat's VP, the most first, with no move left; before the end it carries none."""
    state = titled(
        3, 0, ("king", "robb-stark"), ("hand", "bran-stark"), ("fief-winterfell", "eddard-stark")
    )
    assert court_view(state, 1, seat(1))["ending"] is None
    ended, events = to_the_victory_check(state)
    for viewer in (seat(0), seat(1), HOST, Actor()):
        view = court_view(ended, len(events), viewer)
        ending = view["ending"]
        assert (ending["how"], ending["winners"], ending["round"]) == ("victory", [0], 1)
        assert [(s["seat"], s["vp"], s["winner"]) for s in ending["standings"]] == [
            (0, 3, True),
            (1, 0, False),
            (2, 0, False),
        ]
        assert ending["standings"][0]["house"] == "stark"
        assert (
            ending["text"] == "Player 1 (House Stark) won the game at the victory check of round 1."
        )
        assert view["moves"] == [] and view["game"]["last_round"] == 0
