"""The opposite-gender condition of marriage is a profile setting (R-5.1 [D]): with it off,
any two Nobles who may marry do, divorce works the same for every couple, a heart breaker's
capture ends any marriage (R-5.4), and the King's spouse takes the Queen title whatever the
spouse's gender (R-3.8). Every command is decided with the court's invariants checked after
every event, as the service checks them before it stores anything: no invariant assumes the
setting's default."""

from __future__ import annotations

import pytest

from court.commands import Actor, AnswerMarriage, Command, Divorce, ProposeMarriage, RecordCapture
from court.decide import decide_folded
from court.errors import CourtError
from court.events import Event, TitleGranted
from court.events.decrees import MarriageEnded, MarriageMade
from court.options.legal import legal_commands
from court.soundness.invariants import require_sound
from court.state import CourtState
from tests.court.given import HOST, given, open_decree, seat, started
from tests.court.moments import grant

ROBB, JAIME, SANSA, CERSEI = "robb-stark", "jaime-lannister", "sansa-stark", "cersei-lannister"


def sound(
    state: CourtState, command: Command, actor: Actor = HOST
) -> tuple[tuple[Event, ...], CourtState]:
    return decide_folded(state, command, actor, 0.0, check=require_sound)


def any_gender(players: int = 4) -> CourtState:
    """Round 1 of a game whose profile lets any two Nobles marry, its marriages step open."""
    state = given(*started(players, marriage__opposite_gender=False))
    return open_decree(state, "marriages")


def wed(state: CourtState, noble: str, to: str) -> tuple[tuple[Event, ...], CourtState]:
    proposal = ProposeMarriage(noble=noble, to=to)
    assert proposal in legal_commands(state, seat(0))
    _, state = sound(state, proposal, seat(0))
    assert AnswerMarriage(accept=True) in legal_commands(state, seat(1))
    return sound(state, AnswerMarriage(accept=True), seat(1))


@pytest.mark.parametrize(("noble", "to"), [(ROBB, JAIME), (SANSA, CERSEI)], ids=["lords", "ladies"])
def test_with_opposite_gender_off_two_lords_or_two_ladies_marry_and_ally(noble, to) -> None:
    """R-5.1 [D] opposite_gender = false: the proposal is listed, accepted, and the court the
    marriage leads to is sound (R-5.2: the two players are allied)."""
    events, state = wed(any_gender(), noble, to)
    made = next(e for e in events if isinstance(e, MarriageMade))
    assert {made.lord, made.lady} == {noble, to} and made.alliance
    assert state.nobles[noble].spouse == to and state.nobles[to].spouse == noble
    assert state.alliance_of(seat(0).seat) is not None


def test_by_default_two_lords_may_not_marry() -> None:
    """R-5.1 [D] opposite_gender = true (the default profile)."""
    state = open_decree(given(*started(4)), "marriages")
    assert ProposeMarriage(noble=ROBB, to=JAIME) not in legal_commands(state, seat(0))
    with pytest.raises(CourtError) as err:
        sound(state, ProposeMarriage(noble=ROBB, to=JAIME), seat(0))
    assert err.value.code == "same_gender"


@pytest.mark.parametrize("named", [SANSA, CERSEI], ids=["one-spouse", "the-other"])
def test_the_master_of_laws_divorces_any_couple_named_by_either_spouse(named) -> None:
    """R-5.4, R-5.1: a divorce works the same for every couple; each spouse names it."""
    _, state = wed(any_gender(), SANSA, CERSEI)
    state = grant(state, "master-of-laws", "eddard-stark")
    state = open_decree(state, "marriages")
    moves = legal_commands(state, seat(0))
    assert Divorce(noble=SANSA) in moves and Divorce(noble=CERSEI) in moves
    _, state = sound(state, Divorce(noble=named), seat(0))
    assert state.nobles[SANSA].spouse is None and state.alliances == ()


def test_a_heart_breakers_capture_ends_a_marriage_of_two_lords() -> None:
    """R-5.4: the capture by a heart breaker ends the marriage, whatever the genders."""
    _, state = wed(any_gender(), ROBB, "tyrion-lannister")
    events, state = sound(
        state, RecordCapture(noble=ROBB, house="tyrell", by="margaery-tyrell", cause="a feast")
    )
    assert any(isinstance(e, MarriageEnded) for e in events)
    assert state.nobles[ROBB].spouse is None and state.alliances == ()


def test_the_king_who_marries_a_lord_makes_him_queen() -> None:
    """R-3.8, R-5.1: when the King marries, his spouse takes the Queen title, whatever the
    spouse's gender."""
    state = grant(any_gender(), "king", ROBB)
    events, state = wed(state, ROBB, JAIME)
    assert TitleGranted(title="queen", noble=JAIME, cause="the King married (R-3.8)") in events
    assert state.titles["queen"] == JAIME


def test_the_king_who_is_asked_by_a_lady_makes_her_queen_whoever_proposed() -> None:
    """R-3.8: the King answering a proposal marries as surely as the King proposing."""
    state = grant(any_gender(), "king", JAIME)
    _, state = wed(state, SANSA, JAIME)
    assert state.titles["queen"] == SANSA
