"""The Queen is the King's wife (R-3.8): she takes the title with the King's marriage or his
crown and returns it when that marriage ends or the King dies; a widowed Queen in play and
no Outlaw protects the realm until a King is elected."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import (
    AnswerMarriage,
    Divorce,
    Pass,
    ProposeMarriage,
    RecordCapture,
    RecordDeath,
)
from court.decide import titles
from court.events import TitleGranted, TitleReturned
from court.events.decrees import Divorced, MarriageEnded, MarriageMade
from court.evolve import evolve
from court.ids import NobleId, Seat, TitleId
from court.model.ruleset import Attribute
from court.soundness.invariants import violations
from court.state import CourtState, NobleStatus
from tests.court.given import given, open_decree, seat, started, then_state, when, when_fact

ROBB, CERSEI = NobleId("robb-stark"), NobleId("cersei-lannister")


def grant(state: CourtState, title: str, noble: str) -> CourtState:
    return evolve(state, TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="test"))


def sound(state: CourtState, events) -> CourtState:
    for event in events:
        state = evolve(state, event)
        assert violations(state) == [], event
    return state


def crowned(players: int = 4) -> CourtState:
    """Robb Stark (seat 0) is King and Protector, unmarried."""
    return grant(grant(given(*started(players)), "king", ROBB), "protector", ROBB)


def royal_couple(players: int = 4) -> CourtState:
    """King Robb is married to Queen Cersei (Lannister, seat 1)."""
    married = MarriageMade(lord=ROBB, lady=CERSEI, seats=(Seat(0), Seat(1)), alliance=players >= 4)
    return grant(evolve(crowned(players), married), "queen", CERSEI)


def test_the_kings_marriage_makes_his_wife_queen() -> None:
    """R-3.8: when the King marries, his wife takes the Queen title."""
    state = open_decree(crowned(), "marriages")
    state = then_state(state, when(state, ProposeMarriage(noble=ROBB, to=CERSEI), seat(0)))
    events = when(state, AnswerMarriage(accept=True), seat(1))
    assert TitleGranted(title="queen", noble=CERSEI, cause="the King married (R-3.8)") in events
    assert sound(state, events).titles["queen"] == CERSEI


def test_a_divorced_wife_is_queen_no_more() -> None:
    """R-3.8 [D]: when the King's marriage ends by divorce the Queen title returns to the board
    before the couple is divorced, so no version shows a Queen who is not the King's wife."""
    state = open_decree(grant(royal_couple(), "master-of-laws", "tywin-lannister"), "marriages")
    while state.decree is not None and state.decree.current != 1:
        state = then_state(state, when(state, Pass(), seat(state.decree.current)))
    events = when(state, Divorce(noble=ROBB), seat(1))
    kinds = [type(e) for e in events]
    assert kinds.index(TitleReturned) < kinds.index(Divorced)
    assert "queen" not in sound(state, events).titles


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"outlaw": True}, "an Outlaw"),
        ({"status": NobleStatus.CAPTIVE, "captor": "tyrell"}, "a captive"),
    ],
)
def test_a_widowed_queen_protects_the_realm_only_in_play_and_no_outlaw(changes, why) -> None:
    """R-3.8: if the King dies and the Queen lives, is in play and is no Outlaw, she becomes
    Protector; otherwise Protector returns to the board."""
    state = royal_couple()
    state = replace(
        state, nobles={**state.nobles, CERSEI: replace(state.nobles[CERSEI], **changes)}
    )
    events = when_fact(state, RecordDeath(noble=ROBB, kind="battle", cause="the Twins"))
    after = sound(state, events)
    assert "protector" not in after.titles, why
    assert "queen" not in after.titles and "king" not in after.titles


def test_a_widowed_queen_in_play_protects_the_realm_and_is_queen_no_more() -> None:
    """R-3.8: the widow becomes Protector of the Realm until a King is elected."""
    events = when_fact(royal_couple(), RecordDeath(noble=ROBB, kind="battle", cause="the Twins"))
    after = sound(royal_couple(), events)
    assert after.titles.get("protector") == CERSEI and "queen" not in after.titles


@pytest.mark.parametrize("players", [3, 4])
def test_a_queen_captured_by_a_heart_breaker_is_queen_and_wife_no_more(players) -> None:
    """R-3.8, R-5.4: a capture by a heart breaker or cruel Noble ends the King's marriage (and
    its alliance): the Queen title returns to the board."""
    state = royal_couple(players)
    captor = "tyrell"
    heart_breaker = NobleId("loras-tyrell")
    loras = state.nobles[heart_breaker]
    state = replace(
        state,
        nobles={
            **state.nobles,
            heart_breaker: replace(loras, attributes=loras.attributes | {Attribute.HEART_BREAKER}),
        },
    )
    events = when_fact(
        state, RecordCapture(noble=CERSEI, house=captor, by=heart_breaker, cause="raid")
    )
    assert any(isinstance(e, MarriageEnded) for e in events)
    after = sound(state, events)
    assert "queen" not in after.titles
    assert after.nobles[ROBB].spouse is None and after.nobles[CERSEI].spouse is None
    assert after.alliances == ()


def widowed(**profile: object) -> CourtState:
    """King Robb (married to Queen Cersei) died in battle: Cersei protects the realm."""
    state = given(*started(4, **profile))
    state = grant(state, "king", ROBB)
    married = MarriageMade(lord=ROBB, lady=CERSEI, seats=(Seat(0), Seat(1)), alliance=True)
    state = grant(evolve(state, married), "queen", CERSEI)
    if state.ruleset.profile.titles.king_holds_protector:
        state = grant(state, "protector", ROBB)
    state = sound(state, when_fact(state, RecordDeath(noble=ROBB, kind="battle", cause="Twins")))
    assert state.titles.get("protector") == CERSEI
    return state


@pytest.mark.parametrize("king_holds_protector", [True, False])
def test_a_widowed_queen_protects_the_realm_only_until_a_king_is_elected(
    king_holds_protector: bool,
) -> None:
    """R-3.8: the widow is Protector "until a King is elected", whatever the profile says of
    the King holding the title: when Tywin is crowned she steps down; the new King protects
    the realm only when the profile's king_holds_protector says so."""
    state = widowed(titles__king_holds_protector=king_holds_protector)
    events = titles.grant(state, TitleId("king"), NobleId("tywin-lannister"), "elected", None)
    assert TitleReturned(title="protector", noble=CERSEI, reason="a King was elected") in events
    after = sound(state, events)
    expected = NobleId("tywin-lannister") if king_holds_protector else None
    assert after.titles.get("protector") == expected


@pytest.mark.parametrize("king_holds_protector", [True, False])
def test_the_invariants_refuse_a_widow_protecting_the_realm_under_a_new_king(
    king_holds_protector: bool,
) -> None:
    """R-3.8: while a King reigns, nobody but him protects the realm, and he only when the
    profile's king_holds_protector says so; checked under either value of the setting."""
    state = widowed(titles__king_holds_protector=king_holds_protector)
    crowned_over_her = grant(state, "king", "tywin-lannister")
    assert any("R-3.8" in v for v in violations(crowned_over_her))
    if not king_holds_protector:
        king_protects = grant(
            evolve(state, TitleReturned(title=TitleId("protector"), noble=CERSEI, reason="t")),
            "protector",
            "tywin-lannister",
        )
        king_protects = grant(king_protects, "king", "tywin-lannister")
        assert any("R-3.8" in v for v in violations(king_protects))


def test_the_invariants_refuse_a_widow_protector_when_the_profile_gives_her_none() -> None:
    """R-3.8: with queen_protects_when_king_dies off, nobody protects the realm while no King
    reigns."""
    state = given(*started(4, titles__queen_protects_when_king_dies=False))
    state = grant(grant(state, "king", ROBB), "protector", ROBB)
    state = sound(state, when_fact(state, RecordDeath(noble=ROBB, kind="battle", cause="Twins")))
    assert "protector" not in state.titles
    assert any("R-3.8" in v for v in violations(grant(state, "protector", CERSEI)))


@pytest.mark.parametrize("king_holds_protector", [True, False])
def test_a_widowed_protector_crowned_king_keeps_the_title_only_where_a_king_holds_it(
    king_holds_protector: bool,
) -> None:
    """R-3.8 (found by the soak, after a same-gender marriage): given Tywin protects the realm as
    the late King's widowed spouse, when he is crowned King himself, then he keeps Protector
    only when the profile's king_holds_protector says so."""
    state = widowed(titles__king_holds_protector=king_holds_protector)
    state = evolve(state, TitleReturned(title=TitleId("protector"), noble=CERSEI, reason="t"))
    tywin = NobleId("tywin-lannister")
    state = grant(state, "protector", tywin)
    after = sound(state, titles.grant(state, TitleId("king"), tywin, "elected", None))
    assert after.titles.get("protector") == (tywin if king_holds_protector else None)
