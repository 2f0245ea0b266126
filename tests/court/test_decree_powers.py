"""Decree powers belong to the title's holder as the court stands when they are used (R-6.7),
in Destroying the False Idols (R-6.2), the Royal Pardon (R-6.3) and Send to the Wall (R-6.4);
and the Outlaw mark ends at death (R-6.5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import (
    EmbraceRhllor,
    HandConversion,
    Pardon,
    RecordCapture,
    RecordDeath,
    SendToWall,
)
from court.errors import CourtError
from court.events import TitleGranted
from court.events.decrees import DecreeTurnLapsed, RhllorEmbraced, SeptsPillaged
from court.events.nobles import AttributeGained, DieRolled, OutlawPardoned
from court.evolve import evolve
from court.ids import NobleId, TitleId
from court.soundness.invariants import violations
from court.soundness.settled import unsettled
from court.state import CourtState, NobleStatus
from tests.court.given import given, open_decree, seat, started, then_state, when, when_fact

EDDARD, TYWIN, LORAS = NobleId("eddard-stark"), NobleId("tywin-lannister"), NobleId("loras-tyrell")
SEPTS = {"winterfell": 1, "lannisport": 1, "oldtown": 1}


def grant(state: CourtState, title: str, noble: str) -> CourtState:
    return evolve(state, TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="test"))


def four() -> CourtState:
    """A 4-player game in the cards phase of round 1: Stark 0, Lannister 1, Tyrell 2, Martell 3."""
    return given(*started(4))


def outlaw(state: CourtState, *nobles: str) -> CourtState:
    changed = {n: replace(state.nobles[NobleId(n)], outlaw=True) for n in nobles}
    return replace(state, nobles={**state.nobles, **changed})


def sound(state: CourtState, events) -> CourtState:
    """Fold the events, checking the court after each of them and once they are settled."""
    for event in events:
        state = evolve(state, event)
        assert violations(state) == [], event
    assert unsettled(state) == []
    return state


def pillaged(events) -> dict[str, int]:
    """Each House's share of the Septs pillaged (R-6.2), read from the events."""
    pillage = next(e for e in events if isinstance(e, SeptsPillaged))
    return {share.house: share.gold for share in pillage.shares}


def idols(protector: str = EDDARD, hand: str = TYWIN) -> CourtState:
    """Step 1.1.2 open with three Septs standing: the Protector's turn, then the Hand's."""
    state = grant(grant(four(), "protector", protector), "hand", hand)
    return open_decree(replace(state, septs=dict(SEPTS)), "false_idols")


# -- the false idols -------------------------------------------------------


def test_a_protector_dead_after_his_embrace_keeps_the_pillage_and_the_hand_lapses() -> None:
    """R-6.2 [D], R-6.7: given the Protector embraced R'hllor, when his death is recorded before
    the Hand answers, then the Hand's choice lapses (recorded with the reason), the pillage
    goes to the Protector's House, nobody is cursed, and the step moves on."""
    state = then_state(idols(), when(idols(), EmbraceRhllor(), seat(0)))
    events = when_fact(state, RecordDeath(noble=EDDARD, kind="battle", cause="the Trident"))
    pillage = next(e for e in events if isinstance(e, SeptsPillaged))
    assert pillaged((pillage,)) == {"stark": 6}
    lapsed = next(e for e in events if isinstance(e, DecreeTurnLapsed))
    assert lapsed.seat == 1 and "pillage stays" in lapsed.reason and "R-6.2" in lapsed.reason
    assert not any(isinstance(e, AttributeGained) for e in events)
    after = sound(state, events)
    assert after.septs == {} and after.treasury["stark"] == 16
    assert after.decree is not None and after.decree.id == "send_to_wall"  # the next step
    with pytest.raises(CourtError) as err:
        when(after, HandConversion(convert=True), seat(1))
    assert err.value.code == "wrong_step"


def test_a_queen_made_protector_after_the_kings_embrace_is_not_cursed() -> None:
    """R-6.2, R-6.7, R-3.8: given the King, Protector, embraced R'hllor, when he dies and his
    Queen becomes Protector, then the Hand's choice lapses and only the King was a convert."""
    state = grant(four(), "king", TYWIN)
    state = grant(state, "protector", TYWIN)
    wed = {
        TYWIN: replace(state.nobles[TYWIN], spouse=NobleId("margaery-tyrell")),
        NobleId("margaery-tyrell"): replace(state.nobles[NobleId("margaery-tyrell")], spouse=TYWIN),
    }
    state = grant(replace(state, nobles={**state.nobles, **wed}), "queen", "margaery-tyrell")
    state = open_decree(grant(replace(state, septs=dict(SEPTS)), "hand", EDDARD), "false_idols")
    assert state.decree is not None and state.decree.order == (1, 0)
    state = then_state(state, when(state, EmbraceRhllor(), seat(1)))
    events = when_fact(state, RecordDeath(noble=TYWIN, kind="assassination", cause="wine"))
    assert (
        TitleGranted(title="protector", noble="margaery-tyrell", cause="the King died (R-3.8)")
        in events
    )
    assert pillaged(events) == {"lannister": 6}
    assert not any(isinstance(e, AttributeGained) for e in events)
    sound(state, events)


def test_a_protector_who_dies_before_his_turn_embraces_nothing() -> None:
    """R-6.7: the turn belongs to the Protector the step opened with; when he dies first, his
    turn lapses, and the Hand has nothing to answer (R-6.2)."""
    events = when_fact(idols(), RecordDeath(noble=EDDARD, kind="battle", cause="ambush"))
    lapses = [e for e in events if isinstance(e, DecreeTurnLapsed)]
    assert [e.seat for e in lapses] == [0, 1]
    assert "R-6.7" in lapses[0].reason and "nothing to answer" in lapses[1].reason
    assert not any(isinstance(e, RhllorEmbraced | SeptsPillaged) for e in events)
    sound(idols(), events)


def test_a_king_who_is_also_the_hand_converts_once_and_rolls_one_die() -> None:
    """R-6.2: a Noble who is both Protector and Hand converts once and rolls once."""
    state = grant(grant(four(), "king", EDDARD), "protector", EDDARD)
    state = open_decree(grant(replace(state, septs=dict(SEPTS)), "hand", EDDARD), "false_idols")
    assert state.decree is not None and state.decree.order == (0,)
    events = when(state, EmbraceRhllor(hand_converts=True), seat(0))
    assert [type(e) for e in events].count(AttributeGained) == 1
    assert [type(e) for e in events].count(DieRolled) == 1
    assert pillaged(events) == {"stark": 6}
    sound(state, events)


def test_a_hand_who_died_after_the_embrace_cannot_burn() -> None:
    """R-6.7: the Hand's power lapses with his death; the pillage stays with the Protector."""
    state = then_state(idols(), when(idols(), EmbraceRhllor(), seat(0)))
    events = when_fact(state, RecordDeath(noble=TYWIN, kind="battle", cause="the Green Fork"))
    lapsed = next(e for e in events if isinstance(e, DecreeTurnLapsed))
    assert lapsed.seat == 1 and "Tywin Lannister died" in lapsed.reason
    assert pillaged(events) == {"stark": 6}
    after = sound(state, events)
    with pytest.raises(CourtError):
        when(after, HandConversion(convert=True, burn=LORAS), seat(1))
    assert after.nobles[LORAS].alive


def test_the_hand_answers_but_never_embraces() -> None:
    """R-6.2: only the Protector embraces; on his turn the Hand only answers the embrace."""
    state = then_state(idols(), when(idols(), EmbraceRhllor(), seat(0)))
    with pytest.raises(CourtError) as err:
        when(state, EmbraceRhllor(), seat(1))
    assert err.value.code == "not_the_protector"


# -- the Royal Pardon -------------------------------------------------------


def test_one_player_holding_master_of_laws_and_king_pardons_twice() -> None:
    """R-6.3: two acts even when one player holds both titles."""
    state = grant(grant(four(), "master-of-laws", EDDARD), "king", "robb-stark")
    state = open_decree(outlaw(state, LORAS, "oberyn-martell"), "royal_pardon")
    assert state.decree is not None and state.decree.order == (0, 0)
    first = when(state, Pardon(noble=LORAS), seat(0))
    assert OutlawPardoned(noble=LORAS, by="Master of Laws") in first
    state = sound(state, first)
    second = when(state, Pardon(noble=NobleId("oberyn-martell")), seat(0))
    assert OutlawPardoned(noble="oberyn-martell", by="King") in second
    state = sound(state, second)
    assert not state.nobles[LORAS].outlaw and not state.nobles[NobleId("oberyn-martell")].outlaw


def test_a_master_of_laws_who_died_mid_step_cannot_pardon_and_the_king_pardons_as_king() -> None:
    """R-6.7, R-6.3: the Master of Laws' turn lapses with his death; the King's pardon is
    recorded as the King's."""
    state = grant(grant(four(), "master-of-laws", EDDARD), "king", TYWIN)
    state = open_decree(outlaw(state, LORAS), "royal_pardon")
    events = when_fact(state, RecordDeath(noble=EDDARD, kind="battle", cause="ambush"))
    lapsed = next(e for e in events if isinstance(e, DecreeTurnLapsed))
    assert lapsed.seat == 0 and "Master of Laws" in lapsed.reason
    state = sound(state, events)
    with pytest.raises(CourtError):
        when(state, Pardon(noble=LORAS), seat(0))
    assert OutlawPardoned(noble=LORAS, by="King") in when(state, Pardon(noble=LORAS), seat(1))


# -- Send to the Wall --------------------------------------------------------


@pytest.mark.parametrize(
    "fact",
    [
        RecordDeath(noble=TYWIN, kind="battle", cause="ambush"),
        RecordCapture(noble=TYWIN, house="stark", cause="Riverrun"),
    ],
    ids=["dead", "captured"],
)
def test_a_hand_who_died_or_was_captured_mid_step_declares_nobody_outlaw(fact) -> None:
    """R-6.7: the Hand's turn lapses, recorded with the reason; nobody is outlawed."""
    state = open_decree(grant(four(), "hand", TYWIN), "send_to_wall")
    events = when_fact(state, fact)
    lapsed = next(e for e in events if isinstance(e, DecreeTurnLapsed))
    assert lapsed.step == "send_to_wall" and lapsed.seat == 1
    state = sound(state, events)
    with pytest.raises(CourtError):
        when(state, SendToWall(noble=LORAS), seat(1))


# -- the Outlaw mark ends at death --------------------------------------------------


def test_an_outlaw_who_dies_is_no_outlaw_any_more() -> None:
    """R-6.5: the mark stays until death, a pardon or taking the black."""
    state = outlaw(four(), LORAS)
    events = when_fact(state, RecordDeath(noble=LORAS, kind="battle", cause="the Blackwater"))
    after = sound(state, events)
    assert after.nobles[LORAS].status is NobleStatus.DEAD and not after.nobles[LORAS].outlaw
