"""`court.soundness.invariants`: each property of a sound court, and a court that breaks it is named
with the rule it breaks. The simulation relies on these after every event."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.events import NobleCaptured
from court.evolve import evolve
from court.ids import NobleId, Seat, TitleId
from court.model.ending import Ending, How
from court.model.ruleset import Attribute
from court.soundness.invariants import violations
from court.state import (
    Alliance,
    CourtState,
    Election,
    GameStatus,
    NobleStatus,
    PendingKind,
    PendingTitle,
    Phase,
    Stage,
)
from tests.court.given import given, started


def court(players: int = 4, **profile: object) -> CourtState:
    return given(*started(players, **profile))


def standing(state: CourtState, *candidates: tuple[int, str], withdrawn=()) -> CourtState:
    """The Warden of the North's candidacy open with these (seat, Noble) candidates."""
    election = Election(
        id="warden-north",
        title=TitleId("warden-north"),
        stage=Stage.CANDIDACY,
        order=(Seat(0), Seat(1), Seat(2)),
        candidates=tuple((Seat(s), NobleId(n)) for s, n in candidates),
        withdrawn=tuple(NobleId(n) for n in withdrawn),
    )
    return replace(state, election=election, phase=Phase.DECREES)


def heir(state: CourtState, noble_id: str, **changes) -> CourtState:
    attributes = state.nobles[NobleId(noble_id)].attributes | {Attribute.PRINCE_OF_WESTEROS}
    return noble(state, noble_id, attributes=attributes, **changes)


def titled(state: CourtState, **held: str) -> CourtState:
    titles = {TitleId(t.replace("_", "-")): NobleId(n) for t, n in held.items()}
    return replace(state, titles={**state.titles, **titles})


def noble(state: CourtState, noble_id: str, **changes) -> CourtState:
    nobles = dict(state.nobles)
    nobles[NobleId(noble_id)] = replace(nobles[NobleId(noble_id)], **changes)
    return replace(state, nobles=nobles)


def married(state: CourtState) -> CourtState:
    state = noble(state, "eddard-stark", spouse=NobleId("cersei-lannister"))
    return noble(state, "cersei-lannister", spouse=NobleId("eddard-stark"))


def test_a_started_game_is_sound() -> None:
    assert violations(court()) == []


BROKEN = {
    "treasury below zero (R-2.1)": lambda s: replace(s, treasury={**s.treasury, "stark": -1}),
    "two Military titles (R-3.2)": lambda s: titled(
        s, warden_north="robb-stark", warden_east="robb-stark"
    ),
    "dead with a title (R-1.4)": lambda s: noble(
        titled(s, warden_north="robb-stark"), "robb-stark", status=NobleStatus.DEAD
    ),
    "dead and married (R-1.4)": lambda s: noble(
        married(s), "eddard-stark", status=NobleStatus.DEAD
    ),
    "Outlaw with a Warden title (R-6.5)": lambda s: noble(
        titled(s, warden_north="robb-stark"), "robb-stark", outlaw=True
    ),
    "Brother with a Warden title (R-8.3)": lambda s: noble(
        titled(s, warden_north="robb-stark"), "robb-stark", status=NobleStatus.BROTHER
    ),
    "Lord Commander not a Brother (R-8.3)": lambda s: titled(s, lord_commander="robb-stark"),
    "marriage not returned (R-5.1)": lambda s: noble(
        s, "eddard-stark", spouse=NobleId("cersei-lannister")
    ),
    "captive without a captor (R-8.1)": lambda s: noble(
        s, "robb-stark", status=NobleStatus.CAPTIVE
    ),
    "alliance without marriage (R-5.4)": lambda s: replace(
        s,
        alliances=(
            Alliance(
                seats=(Seat(0), Seat(1)),
                lord=NobleId("eddard-stark"),
                lady=NobleId("cersei-lannister"),
            ),
        ),
    ),
    "Septs after the pillage (R-6.2)": lambda s: replace(
        s, septs={"winterfell": 1}, septs_banned=True
    ),
    "winners while playing (R-4.7)": lambda s: replace(s, winners=(Seat(0),)),
    "two living Heirs (R-3.9)": lambda s: heir(heir(s, "bran-stark"), "tywin-lannister"),
    "an Heir who took the black (R-3.9)": lambda s: heir(
        s, "bran-stark", status=NobleStatus.BROTHER
    ),
    "a Lady Heir (R-3.9)": lambda s: heir(s, "sansa-stark"),
    "a candidate put forward by another House (R-7.1)": lambda s: standing(s, (1, "robb-stark")),
    "a candidate withdrawn who never stood (R-7.2)": lambda s: standing(
        s, (0, "robb-stark"), withdrawn=("bran-stark",)
    ),
    "two Brothers of one House (R-6.4)": lambda s: noble(
        noble(s, "bran-stark", status=NobleStatus.BROTHER),
        "benjen-stark",
        status=NobleStatus.BROTHER,
    ),
    "gold from nowhere (R-2.1)": lambda s: replace(s, treasury={**s.treasury, "stark": 99}),
    "a price held with no sale waiting (R-4.6)": lambda s: replace(
        s,
        treasury={**s.treasury, "stark": s.treasury["stark"] - 3},
        ledger=replace(s.ledger, held={"stark": 3}),
    ),
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_broken_court_is_named_with_its_rule(broken: str) -> None:
    found = violations(BROKEN[broken](court()))
    rule = broken[broken.index("(") + 1 : -1]
    assert found and any(rule in sentence for sentence in found), found


def test_an_alliance_in_a_three_player_game_is_a_violation() -> None:
    """R-4.7: alliances exist only with 4 to 6 players."""
    state = married(court(3))
    state = replace(
        state,
        alliances=(
            Alliance(
                seats=(Seat(0), Seat(1)),
                lord=NobleId("eddard-stark"),
                lady=NobleId("cersei-lannister"),
            ),
        ),
    )
    assert any("R-4.7" in v for v in violations(state))


def test_one_title_too_many_is_sound_while_the_pass_or_return_choice_waits() -> None:
    """R-3.2: the game waits for the choice; until then the Noble holds one title too many."""
    state = titled(court(), warden_north="robb-stark", warden_east="robb-stark")
    waiting = PendingTitle(
        kind=PendingKind.OVERFLOW, seat=Seat(0), noble=NobleId("robb-stark"), title="warden-east"
    )
    assert violations(replace(state, pending=waiting)) == []


def test_an_outlaw_keeps_fief_and_royal_titles_soundly() -> None:
    """R-6.5: Fief titles, King, Queen and Mother of Dragons stay with an Outlaw."""
    state = titled(court(), fief_winterfell="robb-stark", king="robb-stark")
    assert violations(noble(state, "robb-stark", outlaw=True)) == []


def test_an_ended_game_records_its_winners_soundly() -> None:
    ending = Ending(how=How.VICTORY, points={Seat(0): 3})
    state = replace(court(), status=GameStatus.ENDED, winners=(Seat(0),), ending=ending)
    assert violations(state) == []


@pytest.mark.parametrize(
    ("standing", "captor"),
    [(NobleStatus.CAPTIVE, "stark"), (NobleStatus.BROTHER, None), (NobleStatus.DEAD, None)],
    ids=["captive", "brother", "dead"],
)
def test_a_capture_by_a_noble_out_of_play_is_named_with_its_rule(standing, captor) -> None:
    """Section 9: the Noble named as capturer is in play; a log that says otherwise breaks
    the court's invariants at write time, whatever decided it."""
    state = noble(court(), "tywin-lannister", status=standing, captor=captor)
    capture = NobleCaptured(
        noble=NobleId("robb-stark"), captor="lannister", by=NobleId("tywin-lannister"), cause="x"
    )
    after = evolve(state, capture)
    assert violations(after) == []  # the court alone cannot tell
    assert any("section 9" in v for v in violations(after, capture))
    in_play = evolve(court(), capture)
    assert violations(in_play, capture) == []


def test_a_dead_heir_and_a_living_one_are_sound() -> None:
    """R-3.9: one Heir at a time among the living; a dead Heir keeps his attribute."""
    state = heir(heir(court(), "bran-stark", status=NobleStatus.DEAD), "benjen-stark")
    assert violations(state) == []


def brothers(state: CourtState, *nobles: str) -> CourtState:
    for noble_id in nobles:
        state = noble(state, noble_id, status=NobleStatus.BROTHER)
    return state


def two_septs(state: CourtState) -> CourtState:
    return replace(state, septs={"winterfell": 2})


def same_gender_couple(state: CourtState) -> CourtState:
    state = noble(state, "eddard-stark", spouse=NobleId("tywin-lannister"))
    return noble(state, "tywin-lannister", spouse=NobleId("eddard-stark"))


def three_player_alliance(state: CourtState) -> CourtState:
    state = married(state)
    alliance = Alliance(
        seats=(Seat(0), Seat(1)), lord=NobleId("eddard-stark"), lady=NobleId("cersei-lannister")
    )
    return replace(state, alliances=(alliance,))


def the_king_protects(state: CourtState) -> CourtState:
    return titled(state, king="eddard-stark", protector="eddard-stark")


def protector_without_king(state: CourtState) -> CourtState:
    return titled(state, protector="cersei-lannister")


# Each setting an invariant reads, a court it judges by that setting, a value under which that
# court is sound and one under which it is broken (the default is either: no invariant may
# assume it).
SETTINGS = {
    "night_watch__max_brothers": (
        lambda s: brothers(s, "bran-stark", "kevan-lannister"),
        "players",
        1,
        "R-8.3",
    ),
    "purchases__septs_per_village": (two_septs, 2, 1, "R-4.6"),
    "marriage__opposite_gender": (same_gender_couple, False, True, "R-5.1"),
    "marriage__min_players_for_alliance": (three_player_alliance, 3, 4, "R-4.7"),
    "titles__king_holds_protector": (the_king_protects, True, False, "R-3.8"),
    "titles__queen_protects_when_king_dies": (protector_without_king, True, False, "R-3.8"),
}


@pytest.mark.parametrize("setting", list(SETTINGS))
def test_each_invariant_judges_by_the_games_own_profile(setting: str) -> None:
    """An invariant reads every setting from the game's profile, never its default: the same
    court is sound under the setting that allows it and broken under the one that does not."""
    build, allowing, forbidding, rule = SETTINGS[setting]
    players = 3 if setting == "marriage__min_players_for_alliance" else 4
    assert violations(build(court(players, **{setting: allowing}))) == []
    found = violations(build(court(players, **{setting: forbidding})))
    assert any(rule in sentence for sentence in found), found


def test_an_election_with_its_own_candidates_and_one_withdrawn_is_sound() -> None:
    """R-7.1, R-7.2: each seat puts forward one of his own Lords; a withdrawn one stood."""
    state = standing(court(), (0, "robb-stark"), (1, "jaime-lannister"), withdrawn=("robb-stark",))
    assert violations(state) == []
