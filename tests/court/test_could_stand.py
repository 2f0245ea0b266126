"""Who could stand for a title (R-3.10): every way a title changes hands but an election and
the Queen rule checks it: the slot-overflow pass (R-3.2), Title Concession (R-6.6), the
council seat (R-4.6) and the King's grant (R-3.6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import ConcedeTitle, RecordVillageControl, ResolveTitleOverflow
from court.decide import titles
from court.errors import CourtError
from court.events import TitleGranted, TitleSlotsExceeded
from court.evolve import evolve
from court.ids import NobleId, TitleId
from court.options.legal import legal_commands
from court.state import CourtState, NobleStatus
from tests.court.given import created, given, open_decree, seat, started, then_state, when

ROBB, EDDARD, SANSA = NobleId("robb-stark"), NobleId("eddard-stark"), NobleId("sansa-stark")
JAIME, TYWIN, CERSEI = (
    NobleId("jaime-lannister"),
    NobleId("tywin-lannister"),
    NobleId("cersei-lannister"),
)
WINTERFELL = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def grant(state: CourtState, title: str, noble: str) -> CourtState:
    return evolve(state, TitleGranted(title=TitleId(title), noble=NobleId(noble), cause="test"))


def control(state: CourtState, villages, house: str) -> CourtState:
    for village in villages:
        state = then_state(
            state, when(state, RecordVillageControl(village=village, house=house, cause="war"))
        )
    return state


def high_overflow(held: str = "master-of-coin") -> CourtState:
    """Robb, Warden of the North holding a High title (`held`), receives Master of Ships: his
    player must pass or return one of his two High titles (R-3.2). Jaime is Warden of the
    West."""
    state = grant(grant(given(*started(3)), "warden-north", ROBB), held, ROBB)
    state = grant(state, "warden-west", JAIME)
    state = evolve(
        state,
        TitleSlotsExceeded(
            seat=0, noble=ROBB, category="high", title="master-of-ships", deadline=None
        ),
    )
    state = grant(state, "master-of-ships", ROBB)
    assert state.pending is not None
    return state


@pytest.mark.parametrize(
    ("title", "to", "ok"),
    [
        ("master-of-ships", JAIME, True),  # a Warden in play
        ("master-of-ships", TYWIN, False),  # not a Warden
        ("master-of-ships", CERSEI, False),  # a Lady
    ],
)
def test_a_title_one_too_many_passes_only_to_a_noble_who_could_stand_for_it(title, to, ok) -> None:
    """R-3.2, R-3.10: given a High title one too many, when the player passes it on, then only
    a Noble who could stand for it may receive it, and only those are listed."""
    state = high_overflow()
    move = ResolveTitleOverflow(title=TitleId(title), to=to)
    assert (move in legal_commands(state, seat(0))) is ok
    if ok:
        then_state(state, when(state, move, seat(0)))
    else:
        with pytest.raises(CourtError) as err:
            when(state, move, seat(0))
        assert err.value.code in ("cannot_hold", "no_free_slot")


@pytest.mark.parametrize("to", [None, JAIME], ids=["returned", "passed"])
def test_an_overflow_that_involves_the_hand_returns_another_title(to) -> None:
    """R-3.10: the Hand is gained only by election and is never passed on or returned by an
    overflow choice; the other title is passed or returned, and only that is listed."""
    state = high_overflow(held="hand")
    hand = ResolveTitleOverflow(title=TitleId("hand"), to=to)
    moves = legal_commands(state, seat(0))
    assert hand not in moves
    assert ResolveTitleOverflow(title=TitleId("master-of-ships"), to=None) in moves
    with pytest.raises(CourtError) as err:
        when(state, hand, seat(0))
    assert err.value.code == "hand_stays" and "R-3.10" in err.value.message
    kept = then_state(state, when(state, ResolveTitleOverflow(title="master-of-ships"), seat(0)))
    assert kept.titles["hand"] == ROBB and kept.pending is None


def test_a_fief_title_one_too_many_passes_only_to_a_house_holding_its_fiefdom() -> None:
    """R-3.2, R-3.10, R-3.6: a Fief title goes to a Noble whose House controls every village of
    that Fiefdom."""
    state = control(given(*started(3)), WINTERFELL, "stark")
    state = grant(grant(state, "fief-pyke", ROBB), "fief-riverrun", ROBB)
    state = evolve(
        state,
        TitleSlotsExceeded(
            seat=0, noble=ROBB, category="fief", title="fief-winterfell", deadline=None
        ),
    )
    state = grant(state, "fief-winterfell", ROBB)
    to_lannister = ResolveTitleOverflow(title=TitleId("fief-winterfell"), to=JAIME)
    to_stark = ResolveTitleOverflow(title=TitleId("fief-winterfell"), to=EDDARD)
    moves = legal_commands(state, seat(0))
    assert to_lannister not in moves and to_stark in moves
    with pytest.raises(CourtError) as err:
        when(state, to_lannister, seat(0))
    assert err.value.code == "cannot_hold"
    assert then_state(state, when(state, to_stark, seat(0))).titles["fief-winterfell"] == EDDARD


def concession(*grants: tuple[str, str]) -> CourtState:
    """Step 1.1.5 (Title Concession variant) open in a 3-player game."""
    from court.events import GameStarted, RoundStarted
    from court.ids import Seat
    from tests.court.given import joined, settle

    before = (created(3, variants__title_concession=True), joined(0), joined(1), joined(2))
    start = (
        GameStarted(seat_order=(Seat(0), Seat(1), Seat(2)), first_player=Seat(0)),
        RoundStarted(round=1, first_player=Seat(0)),
    )
    state = given(*before)
    state = then_state(state, settle(state, start, 0.0))
    for title, noble in grants:
        state = grant(state, title, noble)
    return open_decree(state, "title_concession")


@pytest.mark.parametrize(
    ("grants", "title", "to", "ok"),
    [
        ((("warden-north", ROBB), ("master-of-coin", ROBB)), "master-of-coin", EDDARD, False),
        ((("warden-north", ROBB), ("master-of-coin", ROBB)), "master-of-coin", SANSA, False),
        ((("warden-north", ROBB),), "warden-north", SANSA, False),
        ((("warden-north", ROBB),), "warden-north", EDDARD, True),
        ((("mother-of-dragons", SANSA),), "mother-of-dragons", EDDARD, False),
        ((("mother-of-dragons", SANSA),), "mother-of-dragons", NobleId("arya-stark"), True),
    ],
    ids=[
        "master-to-non-warden",
        "master-to-lady",
        "warden-to-lady",
        "warden-to-lord",
        "mother-to-lord",
        "mother-to-lady",
    ],
)
def test_title_concession_hands_a_title_only_to_a_noble_who_could_stand_for_it(
    grants, title, to, ok
) -> None:
    """R-6.6, R-3.10: Masters go to Wardens, Military titles to Lords, Mother of Dragons to a
    Lady; what is refused is not listed either."""
    state = concession(*grants)
    move = ConcedeTitle(title=TitleId(title), to=to)
    assert (move in legal_commands(state, seat(0))) is ok
    if ok:
        assert then_state(state, when(state, move, seat(0))).titles[title] == to
    else:
        with pytest.raises(CourtError) as err:
            when(state, move, seat(0))
        assert err.value.code == "cannot_concede"


@pytest.mark.parametrize(
    ("title", "noble", "changes", "ok"),
    [
        ("warden-north", ROBB, {}, True),
        ("warden-north", SANSA, {}, False),
        ("warden-north", ROBB, {"outlaw": True}, False),
        ("warden-north", ROBB, {"status": NobleStatus.CAPTIVE, "captor": "tyrell"}, False),
        ("mother-of-dragons", SANSA, {}, True),
        ("mother-of-dragons", ROBB, {}, False),
        ("hand", ROBB, {}, False),
        ("king", ROBB, {}, False),
    ],
)
def test_who_could_stand_for_a_title(title, noble, changes, ok) -> None:
    """R-3.10: Military: a Lord in play, no Brother, Outlaw or captive; the Hand: a council
    member; Mother of Dragons: a Lady; Royal titles never move."""
    state = given(*started(3))
    state = replace(state, nobles={**state.nobles, noble: replace(state.nobles[noble], **changes)})
    assert titles.could_stand(state, TitleId(title), noble) is ok
