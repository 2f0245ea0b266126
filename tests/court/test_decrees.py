"""Decree steps of phase 1 decided in turn order (R-5.1 to R-5.4, R-6.2 to R-6.6, R-8.3,
R-8.4) and the victory check (R-4.7). Steps are opened here by their own event."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import (
    AnswerMarriage,
    CloseOverdueStep,
    ConcedeTitle,
    Desert,
    Divorce,
    EmbraceRhllor,
    HandConversion,
    Pardon,
    Pass,
    ProposeMarriage,
    SendToWall,
    VoteToEnd,
)
from court.decide import decide, victory
from court.errors import CourtError
from court.events import TitleGranted, TitleReturned
from court.events.decrees import (
    DecreeStepOpened,
    DecreeTurnEnded,
    MarriageMade,
    SeptsPillaged,
    TitleConceded,
)
from court.events.nobles import GoldPaid, OutlawDeclared, TookTheBlack
from court.evolve import evolve
from court.ids import NobleId, Seat, TitleId
from court.state import Alliance, CourtState, GameStatus, NobleStatus
from tests.court.given import created, given, joined, seat, started, then_state, when


def opened(state: CourtState, step: str, *order: int) -> CourtState:
    return evolve(
        state, DecreeStepOpened(step=step, order=tuple(Seat(s) for s in order), deadline=None)
    )


def grant(state: CourtState, title: str, noble: str) -> CourtState:
    return evolve(state, TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="test"))


def act(state: CourtState, command, actor) -> CourtState:
    return then_state(state, when(state, command, actor))


def four() -> CourtState:
    """A 4-player game (alliances exist): Stark 0, Lannister 1, Tyrell 2, Martell 3."""
    return given(*started(4))


def test_an_accepted_marriage_weds_the_couple_allies_the_players_and_pays_the_fee() -> None:
    """R-5.1, R-5.3: Cersei is hard to marry, so House Lannister pays 2 GD to House Stark."""
    state = opened(four(), "marriages", 0, 1, 2, 3)
    state = act(
        state,
        ProposeMarriage(noble=NobleId("robb-stark"), to=NobleId("cersei-lannister")),
        seat(0),
    )
    assert state.proposal is not None and state.proposal.to_seat == 1
    events = when(state, AnswerMarriage(accept=True), seat(1))
    assert (
        GoldPaid(
            house="lannister",
            to_house="stark",
            amount=2,
            cause="Cersei Lannister is hard to marry (R-5.3)",
        )
        in events
    )
    assert (
        MarriageMade(
            lord=NobleId("robb-stark"),
            lady=NobleId("cersei-lannister"),
            seats=(Seat(0), Seat(1)),
            alliance=True,
        )
        in events
    )
    assert events[-1] == DecreeTurnEnded(step="marriages", seat=Seat(0))
    state = then_state(state, events)
    assert state.nobles["robb-stark"].spouse == "cersei-lannister"
    assert state.alliance_of(Seat(1)) is not None
    assert state.treasury["stark"] == 12 and state.treasury["lannister"] == 8
    assert state.decree is not None and state.decree.current == 1


def test_a_three_player_marriage_makes_no_alliance() -> None:
    """R-5.3, R-4.7: alliances exist only with 4 to 6 players."""
    state = opened(given(*started(3)), "marriages", 0, 1, 2)
    state = act(
        state,
        ProposeMarriage(noble=NobleId("robb-stark"), to=NobleId("genna-lannister")),
        seat(0),
    )
    state = act(state, AnswerMarriage(accept=True), seat(1))
    assert state.alliances == () and state.nobles["genna-lannister"].spouse == "robb-stark"


@pytest.mark.parametrize(
    ("noble", "to", "code"),
    [
        ("jon-snow", "genna-lannister", "cannot_marry"),  # a bastard
        ("robb-stark", "tywin-lannister", "same_gender"),
        ("robb-stark", "sansa-stark", "same_house"),
        ("tywin-lannister", "sansa-stark", "not_your_noble"),
    ],
)
def test_a_marriage_that_breaks_a_restriction_is_refused(noble, to, code) -> None:
    """R-5.1 [D]: opposite gender, two Houses, unmarried, no bastard."""
    state = opened(four(), "marriages", 0, 1, 2, 3)
    with pytest.raises(CourtError) as err:
        when(state, ProposeMarriage(noble=NobleId(noble), to=NobleId(to)), seat(0))
    assert err.value.code == code


@pytest.mark.parametrize(
    ("noble", "to"),
    [("robb-stark", "margaery-tyrell"), ("eddard-stark", "genna-lannister")],
    ids=["proposer-married", "asked-married"],
)
def test_a_married_noble_can_marry_nobody_else(noble: str, to: str) -> None:
    """R-5.1 [R]: both Nobles are unmarried. With 3 players no alliance forbids a second
    marriage (R-5.2), so only this rule does: Robb is married to Genna."""
    wed = MarriageMade(
        lord=NobleId("robb-stark"),
        lady=NobleId("genna-lannister"),
        seats=(Seat(0), Seat(1)),
        alliance=False,
    )
    state = opened(evolve(given(*started(3)), wed), "marriages", 0, 1, 2)
    with pytest.raises(CourtError) as err:
        when(state, ProposeMarriage(noble=NobleId(noble), to=NobleId(to)), seat(0))
    assert err.value.code == "cannot_marry"


def test_a_player_in_an_alliance_cannot_make_another() -> None:
    """R-5.2 [D]: at most one marriage alliance at a time."""
    state = four()
    state = replace(
        state,
        alliances=(
            Alliance(
                seats=(Seat(1), Seat(2)),
                lord=NobleId("tywin-lannister"),
                lady=NobleId("margaery-tyrell"),
            ),
        ),
    )
    state = opened(state, "marriages", 0, 1, 2, 3)
    with pytest.raises(CourtError) as err:
        when(
            state,
            ProposeMarriage(noble=NobleId("robb-stark"), to=NobleId("cersei-lannister")),
            seat(0),
        )
    assert err.value.code == "already_allied"


def test_out_of_turn_and_foreign_answers_are_refused() -> None:
    state = opened(four(), "marriages", 0, 1, 2, 3)
    with pytest.raises(CourtError) as err:
        when(
            state,
            ProposeMarriage(noble=NobleId("tywin-lannister"), to=NobleId("sansa-stark")),
            seat(1),
        )
    assert err.value.code == "not_your_turn"
    state = act(
        state,
        ProposeMarriage(noble=NobleId("robb-stark"), to=NobleId("cersei-lannister")),
        seat(0),
    )
    with pytest.raises(CourtError) as err:
        when(state, AnswerMarriage(accept=True), seat(2))
    assert err.value.code == "not_your_answer"


def test_only_the_master_of_laws_divorces_and_the_alliance_ends() -> None:
    """R-5.4."""
    state = opened(four(), "marriages", 0, 1, 2, 3)
    state = act(
        state,
        ProposeMarriage(noble=NobleId("robb-stark"), to=NobleId("cersei-lannister")),
        seat(0),
    )
    state = act(state, AnswerMarriage(accept=True), seat(1))
    with pytest.raises(CourtError) as err:
        when(state, Divorce(noble=NobleId("robb-stark")), seat(1))
    assert err.value.code == "not_master_of_laws"
    state = grant(state, "master-of-laws", "tywin-lannister")
    state = act(state, Divorce(noble=NobleId("cersei-lannister")), seat(1))
    assert state.nobles["robb-stark"].spouse is None and state.alliances == ()


def test_an_outlaw_keeps_only_fief_and_royal_titles() -> None:
    """R-6.4, R-6.5."""
    state = grant(
        grant(grant(four(), "hand", "eddard-stark"), "fief-pyke", "tywin-lannister"),
        "warden-west",
        "tywin-lannister",
    )
    state = opened(state, "send_to_wall", 0)
    events = when(state, SendToWall(noble=NobleId("tywin-lannister")), seat(0))
    kinds = [type(e) for e in events]
    assert kinds.index(TitleReturned) < kinds.index(OutlawDeclared)  # sound after each event
    assert [e.title for e in events if isinstance(e, TitleReturned)] == ["warden-west"]
    state = then_state(state, events)
    assert state.nobles["tywin-lannister"].outlaw
    assert state.titles["fief-pyke"] == "tywin-lannister"


def test_the_master_of_laws_can_never_be_declared_outlaw() -> None:
    """R-3.5, R-6.4."""
    state = grant(grant(four(), "hand", "eddard-stark"), "master-of-laws", "tywin-lannister")
    state = opened(state, "send_to_wall", 0)
    with pytest.raises(CourtError) as err:
        when(state, SendToWall(noble=NobleId("tywin-lannister")), seat(0))
    assert err.value.code == "master_of_laws"


def test_with_the_nights_watch_an_unmarried_lord_takes_the_black_instead() -> None:
    """R-6.4 NWE, R-8.3: every title dropped; the King never takes the black."""
    state = given(created(3, variants__nights_watch=True), joined(0), joined(1), joined(2))
    from court.commands import StartGame
    from tests.court.given import HOST

    state = then_state(state, when(state, StartGame(), HOST))
    state = grant(grant(state, "hand", "eddard-stark"), "warden-west", "kevan-lannister")
    state = grant(state, "king", "tywin-lannister")
    state = opened(state, "send_to_wall", 0)
    events = when(state, SendToWall(noble=NobleId("kevan-lannister")), seat(0))
    assert any(isinstance(e, TookTheBlack) for e in events)
    after = then_state(state, events)
    assert after.nobles["kevan-lannister"].status is NobleStatus.BROTHER
    assert "warden-west" not in after.titles
    events = when(state, SendToWall(noble=NobleId("tywin-lannister")), seat(0))
    assert isinstance(events[0], OutlawDeclared)


def test_the_master_of_laws_then_the_king_pardon() -> None:
    """R-6.3."""
    state = grant(grant(four(), "master-of-laws", "eddard-stark"), "king", "tywin-lannister")
    nobles = {**state.nobles, "loras-tyrell": replace(state.nobles["loras-tyrell"], outlaw=True)}
    state = opened(replace(state, nobles=nobles), "royal_pardon", 0, 1)
    with pytest.raises(CourtError) as err:
        when(state, Pardon(noble=NobleId("robb-stark")), seat(0))
    assert err.value.code == "not_outlaw"
    state = act(state, Pardon(noble=NobleId("loras-tyrell")), seat(0))
    assert not state.nobles["loras-tyrell"].outlaw
    assert state.decree is not None and state.decree.current == 1
    state = act(state, Pass(), seat(1))
    assert state.decree is not None and state.decree.current is None


def test_the_false_idols_are_pillaged_and_split_with_a_converting_hand() -> None:
    """R-6.2: 2 GD a Sept; split evenly, the odd Dragon to the Protector; the Hand burns."""
    state = grant(grant(four(), "protector", "eddard-stark"), "hand", "tywin-lannister")
    septs = {"winterfell": 1, "lannisport": 1, "oldtown": 1}
    state = opened(replace(state, septs=septs), "false_idols", 0, 1)
    state = act(state, EmbraceRhllor(), seat(0))
    assert state.septs_banned and state.decree is not None and state.decree.current == 1
    events = when(state, HandConversion(convert=True, burn=NobleId("loras-tyrell")), seat(1))
    pillage = next(e for e in events if isinstance(e, SeptsPillaged))
    assert {s.house: s.gold for s in pillage.shares} == {"stark": 3, "lannister": 3}
    state = then_state(state, events)
    assert state.septs == {}
    assert state.nobles["loras-tyrell"].status is NobleStatus.DEAD
    assert {a.value for a in state.nobles["eddard-stark"].attributes} >= {"gods_cursed"}
    assert state.rolls == 2  # both converts rolled at once


@pytest.mark.parametrize("hand_answer", ["pass", "deadline"])
def test_the_septs_are_pillaged_when_the_hand_passes_or_lets_the_deadline_pass(hand_answer) -> None:
    """R-6.2, R-4.3: the pillage follows the embrace whatever the Hand does; a Hand who passes
    or does not answer in time does not convert, and the Protector's House takes it all."""
    state = grant(grant(four(), "protector", "eddard-stark"), "hand", "tywin-lannister")
    septs = {"winterfell": 1, "lannisport": 1, "oldtown": 1}
    state = opened(replace(state, septs=septs), "false_idols", 0, 1)
    state = act(state, EmbraceRhllor(), seat(0))
    state = replace(state, decree=replace(state.decree, deadline=10.0))

    if hand_answer == "pass":
        events = when(state, Pass(), seat(1))
    else:
        events = decide(state, CloseOverdueStep(), seat(0), 11.0)

    pillage = next(e for e in events if isinstance(e, SeptsPillaged))
    assert {s.house: s.gold for s in pillage.shares} == {"stark": 6}
    after = then_state(state, events)
    assert after.septs == {} and after.septs_banned
    assert "gods_cursed" not in {a.value for a in after.nobles["tywin-lannister"].attributes}


def test_title_concession_hands_a_title_within_the_house() -> None:
    """R-6.6 (variant)."""
    state = grant(four(), "warden-north", "eddard-stark")
    state = opened(state, "title_concession", 0)
    events = when(
        state, ConcedeTitle(title=TitleId("warden-north"), to=NobleId("robb-stark")), seat(0)
    )
    assert events[0] == TitleConceded(
        title=TitleId("warden-north"), noble=NobleId("eddard-stark"), to=NobleId("robb-stark")
    )
    with pytest.raises(CourtError):
        when(state, ConcedeTitle(title=TitleId("warden-north"), to=NobleId("sansa-stark")), seat(0))


def test_a_deserting_lord_commander_leaves_his_title_free_and_is_outlaw() -> None:
    """R-8.4."""
    state = four()
    nobles = {
        **state.nobles,
        "benjen-stark": replace(state.nobles["benjen-stark"], status=NobleStatus.BROTHER),
    }
    state = grant(replace(state, nobles=nobles), "lord-commander", "benjen-stark")
    state = opened(state, "oathbreakers", 0)
    state = act(state, Desert(noble=NobleId("benjen-stark")), seat(0))
    assert state.nobles["benjen-stark"].outlaw
    assert state.nobles["benjen-stark"].status is NobleStatus.IN_PLAY
    assert "lord-commander" not in state.titles


def test_victory_alone_with_three_points_or_allied_with_four() -> None:
    """R-4.7, R-3.7."""
    state = four()
    for title, noble in (
        ("fief-winterfell", "eddard-stark"),
        ("king", "robb-stark"),
        ("hand", "bran-stark"),
    ):
        state = grant(state, title, noble)
    ended = victory.check(state)
    assert ended is not None and ended.winners == (0,)
    allied = replace(
        state,
        alliances=(
            Alliance(
                seats=(Seat(0), Seat(1)),
                lord=NobleId("robb-stark"),
                lady=NobleId("cersei-lannister"),
            ),
        ),
    )
    # allied players cannot win alone, and 3 VP between them is not 4
    assert victory.check(allied) is None
    ended = victory.check(grant(allied, "fief-pyke", "tywin-lannister"))
    assert ended is not None and set(ended.winners) == {0, 1}


def test_a_marriage_offered_when_the_table_ends_the_game_is_answered_no_more() -> None:
    """R-4.7, R-5.1: given Robb offered to Cersei, when the table ends the game, then House
    Lannister's answer, either way, is refused with `game_ended`."""
    state = opened(four(), "marriages", 0, 1, 2, 3)
    state = act(
        state,
        ProposeMarriage(noble=NobleId("robb-stark"), to=NobleId("cersei-lannister")),
        seat(0),
    )
    for voter in (1, 2, 3):
        state = act(state, VoteToEnd(), seat(voter))
    assert state.status is GameStatus.ENDED and state.proposal is not None
    for accept in (True, False):
        with pytest.raises(CourtError) as refused:
            decide(state, AnswerMarriage(accept=accept), seat(1))
        assert refused.value.code == "game_ended"
