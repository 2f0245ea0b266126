"""The host's recorded facts of a Noble's life and the Court Events (section 9, R-1.2 to R-1.4,
R-3.5, R-3.8, R-3.9, R-5.4, R-6.2, R-6.5, R-8.1, R-8.5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.commands import (
    SPECTATOR,
    AddNoble,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordWallSupplies,
)
from court.decide import decide_folded, settle
from court.errors import CourtError, NotAllowed
from court.events import (
    AllianceEnded,
    AttributeGained,
    GameStarted,
    GoldAdjusted,
    NobleAdded,
    NobleCaptured,
    NobleDied,
    NobleFreed,
    RoundStarted,
    TitleChoiceLapsed,
    TitleGranted,
    TitleReturned,
    TitleSlotsExceeded,
)
from court.evolve import replay
from court.ids import HouseId, NobleId, Seat
from court.model.ruleset import Attribute, Gender, NobleCard
from court.options.recordable import recordable
from court.soundness.invariants import require_sound
from court.state import Alliance, CourtState, NobleStatus, PendingKind, PendingTitle
from tests.court.given import (
    GAME,
    HOST,
    created,
    given,
    joined,
    lobby,
    seat,
    started,
    then_state,
    when,
    when_fact,
)
from tests.court.moments import grant, noble

# A 3-player game: Stark is seat 0, Lannister seat 1, Tyrell seat 2; the host has no seat.
ROBB, NED, BRAN = NobleId("robb-stark"), NobleId("eddard-stark"), NobleId("bran-stark")
CATELYN, SANSA = NobleId("catelyn-stark"), NobleId("sansa-stark")
TYWIN, JAIME, TYRION = (
    NobleId("tywin-lannister"),
    NobleId("jaime-lannister"),
    NobleId("tyrion-lannister"),
)
KEVAN = NobleId("kevan-lannister")
MARGAERY = NobleId("margaery-tyrell")


def court() -> CourtState:
    """Round 1 of a started 3-player game, in the cards phase."""
    return given(*started(3))


def with_the_watch() -> CourtState:
    """The same game played with the Night's Watch variant (NWE)."""
    before = (created(3, variants__nights_watch=True), joined(0), joined(1), joined(2))
    start = (
        GameStarted(seat_order=(Seat(0), Seat(1), Seat(2)), first_player=Seat(0)),
        RoundStarted(round=1, first_player=Seat(0)),
    )
    return given(*before, *settle(replay(GAME, before), start, 0.0))


def married(state: CourtState) -> CourtState:
    """Robb Stark (seat 0) and Margaery Tyrell (seat 2) married, their Houses allied (R-5.2)."""
    state = noble(noble(state, ROBB, spouse=MARGAERY), MARGAERY, spouse=ROBB)
    return replace(state, alliances=(Alliance(seats=(Seat(0), Seat(2)), lord=ROBB, lady=MARGAERY),))


def captive(state: CourtState, noble_id: NobleId, captor: str = "lannister") -> CourtState:
    return noble(state, noble_id, status=NobleStatus.CAPTIVE, captor=HouseId(captor))


def refused(state: CourtState, command, actor=HOST) -> CourtError:
    with pytest.raises(CourtError) as err:
        when(state, command, actor)
    return err.value


# -- capture (R-8.1, R-5.4) ---------------------------------------------------------------------


def test_the_host_records_a_noble_taken_captive_by_another_house() -> None:
    """R-8.1: a captive is held by another House and keeps his titles."""
    state = grant(court(), "warden-north", ROBB)

    events = when_fact(state, RecordCapture(noble=ROBB, house="lannister", cause=" Green Fork "))

    assert events == (NobleCaptured(noble=ROBB, captor="lannister", by=None, cause="Green Fork"),)
    after = then_state(state, events)
    assert after.nobles[ROBB].status is NobleStatus.CAPTIVE
    assert after.nobles[ROBB].captor == "lannister"
    assert after.titles_of(ROBB) == ("warden-north",)


def test_a_dead_noble_cannot_be_captured() -> None:
    """Section 9, R-1.4: a dead Noble takes no further part."""
    state = noble(court(), ROBB, status=NobleStatus.DEAD)

    err = refused(state, RecordCapture(noble=ROBB, house="lannister", cause="battle"))

    assert err.code == "noble_dead"


def test_a_captive_cannot_be_captured_again() -> None:
    """R-1.4, R-8.1: a captive is already held by a House."""
    state = captive(court(), ROBB, "tyrell")

    err = refused(state, RecordCapture(noble=ROBB, house="lannister", cause="battle"))

    assert err.code == "already_captive"
    assert "R-8.1" in err.message
    assert "held captive by House Tyrell" in err.message, err.message


def test_a_brother_of_the_nights_watch_cannot_be_captured() -> None:
    """R-1.4: a Brother is not in play."""
    state = noble(court(), BRAN, status=NobleStatus.BROTHER)

    err = refused(state, RecordCapture(noble=BRAN, house="lannister", cause="battle"))

    assert err.code == "noble_brother"


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (RecordCapture(noble=ROBB, house="stark", cause="x"), "own_house"),
        (RecordCapture(noble=ROBB, house="martell", cause="x"), "unknown_house"),
        (RecordCapture(noble="nobody", house="lannister", cause="x"), "unknown_noble"),
        (RecordCapture(noble=ROBB, house="lannister", by=MARGAERY, cause="x"), "bad_captor"),
        (RecordCapture(noble=ROBB, house="lannister", by=KEVAN, cause="x"), "captor_not_in_play"),
    ],
    ids=["own-house", "house-not-playing", "unknown-noble", "captor-of-another-house", "dead-by"],
)
def test_an_impossible_capture_is_refused(command, code) -> None:
    """R-1.4, R-8.1: a captive is held by another House that plays, taken by one of its Nobles
    in play."""
    state = noble(court(), KEVAN, status=NobleStatus.DEAD)

    err = refused(state, command)

    assert err.code == code
    # A House is named as the players know it, never by its id
    assert not any(f" {h}" in err.message for h in ("stark", "lannister", "martell")), err.message


@pytest.mark.parametrize("captor", [TYWIN, JAIME], ids=["cruel", "heart-breaker"])
def test_a_capture_by_a_cruel_or_heart_breaker_noble_ends_the_alliance(captor) -> None:
    """R-5.4: an alliance ends when a spouse is captured by a heart breaker or cruel Noble."""
    state = married(court())

    events = when_fact(state, RecordCapture(noble=ROBB, house="lannister", by=captor, cause="x"))

    assert isinstance(events[0], AllianceEnded) and set(events[0].seats) == {0, 2}
    assert "R-5.4" in events[0].reason
    assert then_state(state, events).alliances == ()


@pytest.mark.parametrize(
    ("standing", "held_by"),
    [(NobleStatus.CAPTIVE, "stark"), (NobleStatus.BROTHER, None)],
    ids=["captive", "brother"],
)
def test_a_captive_or_a_brother_captures_nobody_and_the_marriage_stands(standing, held_by) -> None:
    """Section 9, R-8.1: the capturing Noble must be in play; a captive cruel Tywin (or Tywin
    sworn to the Watch) cannot take Robb and end his marriage (R-5.4)."""
    state = noble(married(court()), TYWIN, status=standing, captor=held_by)

    err = refused(state, RecordCapture(noble=ROBB, house="lannister", by=TYWIN, cause="x"))

    assert err.code == "captor_not_in_play"
    assert "section 9" in err.message and "Tywin" in err.message


def test_a_capture_by_an_ordinary_noble_leaves_the_alliance() -> None:
    """R-5.4: only a heart breaker or cruel captor ends the alliance."""
    state = married(court())

    events = when_fact(state, RecordCapture(noble=ROBB, house="lannister", by=KEVAN, cause="x"))

    assert events == (NobleCaptured(noble=ROBB, captor="lannister", by=KEVAN, cause="x"),)
    assert len(then_state(state, events).alliances) == 1


# -- release and escape (R-8.1) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "cause"),
    [
        (RecordRelease(noble=ROBB, cause="mercy"), "released: mercy"),
        (RecordEscape(noble=ROBB, cause="by night"), "escaped: by night"),
    ],
    ids=["release", "escape"],
)
def test_a_captive_released_or_escaped_is_back_in_play(command, cause) -> None:
    """R-8.1: release and escape are recorded facts; the Noble goes home."""
    state = captive(court(), ROBB)

    events = when_fact(state, command)

    assert events == (NobleFreed(noble=ROBB, cause=cause),)
    after = then_state(state, events)
    assert after.nobles[ROBB].status is NobleStatus.IN_PLAY
    assert after.nobles[ROBB].captor is None


@pytest.mark.parametrize(
    "command",
    [RecordRelease(noble=ROBB, cause="mercy"), RecordEscape(noble=ROBB, cause="by night")],
    ids=["release", "escape"],
)
def test_a_noble_who_is_not_captive_cannot_be_released_or_escape(command) -> None:
    """R-8.1: only a captive is released or escapes."""
    err = refused(court(), command)

    assert err.code == "not_captive"
    assert "R-8.1" in err.message


# -- death (R-1.4, R-3.8, R-5.4, R-6.2, R-6.5) --------------------------------------------------


def test_the_host_records_a_death_in_battle() -> None:
    """Section 9, R-1.4: the death names its kind and cause."""
    state = court()

    events = when_fact(state, RecordDeath(noble=NED, kind="battle", cause="Whispering Wood"))

    assert events == (NobleDied(noble=NED, cause="battle: Whispering Wood"),)
    assert then_state(state, events).nobles[NED].status is NobleStatus.DEAD


def test_a_dead_noble_holds_no_titles_afterwards() -> None:
    """R-1.4: a dead Noble keeps no title; his titles return to the board."""
    state = grant(grant(court(), "warden-north", NED), "fief-winterfell", NED)

    events = when_fact(state, RecordDeath(noble=NED, kind="assassination", cause="poison"))

    assert {e.title for e in events if isinstance(e, TitleReturned)} == {
        "warden-north",
        "fief-winterfell",
    }
    assert then_state(state, events).titles_of(NED) == ()


def test_a_captive_can_die() -> None:
    """R-1.4: any living Noble can die, a captive too."""
    state = captive(court(), ROBB)

    events = when_fact(state, RecordDeath(noble=ROBB, kind="other", cause="fever"))

    assert then_state(state, events).nobles[ROBB].status is NobleStatus.DEAD


def test_a_dead_noble_cannot_die_again() -> None:
    """R-1.4: dead Nobles take no further part."""
    state = noble(court(), NED, status=NobleStatus.DEAD)

    assert refused(state, RecordDeath(noble=NED, kind="battle", cause="x")).code == "noble_dead"


def test_the_death_of_a_spouse_ends_the_alliance() -> None:
    """R-5.4: an alliance ends when a spouse dies."""
    state = married(court())

    events = when_fact(state, RecordDeath(noble=MARGAERY, kind="assassination", cause="wine"))

    assert isinstance(events[0], AllianceEnded)
    after = then_state(state, events)
    assert after.alliances == ()
    assert after.nobles[ROBB].spouse is None


def test_the_death_of_the_king_makes_his_living_queen_protector() -> None:
    """R-3.8: if the King dies and the Queen lives, she becomes Protector of the Realm."""
    state = noble(noble(court(), NED, spouse=CATELYN), CATELYN, spouse=NED)
    state = grant(grant(grant(state, "king", NED), "protector", NED), "queen", CATELYN)

    events = when_fact(state, RecordDeath(noble=NED, kind="battle", cause="the Trident"))

    assert TitleGranted(title="protector", noble=CATELYN, cause="the King died (R-3.8)") in events
    after = then_state(state, events)
    assert after.titles.get("protector") == CATELYN
    assert "king" not in after.titles


def test_justice_kills_an_outlaw() -> None:
    """R-6.5: an Outlaw can be killed by a Justice card."""
    state = noble(court(), ROBB, outlaw=True)

    events = when_fact(state, RecordDeath(noble=ROBB, kind="justice", cause="card"))

    assert events == (NobleDied(noble=ROBB, cause="justice: card"),)


def test_justice_cannot_kill_a_noble_who_is_not_an_outlaw() -> None:
    """R-6.5: Justice applies to Outlaws only."""
    err = refused(court(), RecordDeath(noble=ROBB, kind="justice", cause="card"))

    assert err.code == "not_outlaw"
    assert "R-6.5" in err.message


def test_justice_cannot_kill_an_outlaw_immune_to_justice() -> None:
    """R-6.5, R-1.3: an Outlaw `immune_to_justice` is spared."""
    state = noble(court(), TYRION, outlaw=True)

    err = refused(state, RecordDeath(noble=TYRION, kind="justice", cause="card"))

    assert err.code == "immune_to_justice"
    assert "R-6.5" in err.message


def test_an_uprising_kills_a_gods_cursed_noble() -> None:
    """R-6.2: any player may play an Uprising on a Gods-cursed Noble."""
    state = noble(court(), TYWIN, attributes=frozenset({Attribute.CRUEL, Attribute.GODS_CURSED}))

    events = when_fact(state, RecordDeath(noble=TYWIN, kind="uprising", cause="card"))

    assert events == (NobleDied(noble=TYWIN, cause="uprising: card"),)


def test_an_uprising_cannot_be_played_on_a_noble_who_is_not_gods_cursed() -> None:
    """R-6.2: an Uprising affects a Gods-cursed Noble only."""
    err = refused(court(), RecordDeath(noble=TYWIN, kind="uprising", cause="card"))

    assert err.code == "not_gods_cursed"
    assert "R-6.2" in err.message


def waiting_to_take(title: str = "warden-north", noble: NobleId = ROBB) -> CourtState:
    """Robb's player must take or refuse a title he won (R-3.3)."""
    waiting = PendingTitle(
        kind=PendingKind.ACCEPTANCE, seat=Seat(0), noble=noble, title=title, election="x"
    )
    return replace(court(), pending=waiting)


@pytest.mark.parametrize(
    ("fact", "what"),
    [
        (RecordDeath(noble=ROBB, kind="assassination", cause="x"), "died"),
        (RecordCapture(noble=ROBB, house="lannister", cause="x"), "was captured"),
    ],
    ids=["death", "capture"],
)
def test_a_fact_about_a_noble_whose_player_must_take_or_refuse_a_title_lapses_the_choice(
    fact, what
) -> None:
    """Section 9, R-3.3: a fact is never held back by a choice a player still has to make: the
    Noble who dies or is captured while his player must take or refuse a title loses that
    choice, the title stays on the board and the game goes on."""
    state = waiting_to_take()

    events = when_fact(state, fact)

    assert events[0] == TitleChoiceLapsed(
        seat=0,
        noble=ROBB,
        title="warden-north",
        reason=f"Robb Stark {what} before his player chose",
    )
    after = then_state(state, events)
    assert after.pending is None and "warden-north" not in after.titles
    assert when(state, RecordDeath(noble=NED, kind="assassination", cause="x"))  # not his


def test_a_captive_whose_player_must_choose_after_an_overflow_returns_the_title_that_came() -> None:
    """Section 9, R-3.2: captured while his player must pass or return a title, the Noble loses
    that choice: the title that came (Warden of the East) stays on the board, the one he held
    stays his (a captive keeps his titles, R-8.1)."""
    state = grant(court(), "warden-north", ROBB)
    state = then_state(
        state,
        (
            TitleSlotsExceeded(
                seat=0, noble=ROBB, category="military", title="warden-east", deadline=None
            ),
            TitleGranted(title="warden-east", noble=ROBB, cause="election:warden-east"),
        ),
    )

    events = when_fact(state, RecordCapture(noble=ROBB, house="lannister", cause="x"))

    assert events[0] == TitleReturned(
        title="warden-east",
        noble=ROBB,
        reason="Robb Stark was captured before his player chose (section 9)",
    )
    after = then_state(state, events)
    assert after.pending is None and after.titles_of(ROBB) == ("warden-north",)
    assert after.nobles[ROBB].status is NobleStatus.CAPTIVE


def test_a_death_while_his_player_must_choose_after_an_overflow_returns_every_title_soundly() -> (
    None
):
    """Section 9, R-1.4, R-3.2: given Robb holds Winterfell's Fief title and the Warden of the
    North, and won the Warden of the East (his player must pass or return one), when his
    death is recorded, then every title returns, the one that came first, so that no court
    on the way holds two Wardens with nobody left to choose (the death was refused as an
    engine defect when Winterfell went first)."""
    state = grant(grant(court(), "fief-winterfell", ROBB), "warden-north", ROBB)
    state = then_state(
        state,
        (
            TitleSlotsExceeded(
                seat=0, noble=ROBB, category="military", title="warden-east", deadline=None
            ),
            TitleGranted(title="warden-east", noble=ROBB, cause="election:warden-east"),
        ),
    )

    events, after = decide_folded(
        state, RecordDeath(noble=ROBB, kind="battle", cause="x"), HOST, check=require_sound
    )

    returned = [e.title for e in events if isinstance(e, TitleReturned)]
    assert returned[0] == "warden-east"
    assert sorted(returned) == ["fief-winterfell", "warden-east", "warden-north"]
    assert after.pending is None and after.titles_of(ROBB) == ()


def test_a_death_of_an_unknown_kind_is_refused() -> None:
    """Section 9: a death is by battle, Justice, Assassination, Uprising, at the Wall or other."""
    err = refused(court(), RecordDeath(noble=NED, kind="boredom", cause="x"))

    assert err.code == "bad_death_kind"


# -- Court Event: a new Noble (R-1.2) -----------------------------------------------------------


def test_a_court_event_brings_a_new_noble_into_play() -> None:
    """R-1.2: the host may add a Noble to a House."""
    state = court()
    command = AddNoble(
        house="stark",
        noble="rickon-stark",
        name=" Rickon  Stark ",
        gender="lord",
        attributes=("cruel", "bastard"),
        cause="Court Event card",
    )

    events = when_fact(state, command)

    assert events == (
        NobleAdded(
            house="stark",
            noble=NobleCard(
                id=NobleId("rickon-stark"),
                name="Rickon Stark",
                gender=Gender.LORD,
                attributes=frozenset({Attribute.BASTARD, Attribute.CRUEL}),
            ),
            cause="Court Event card",
        ),
    )
    rickon = then_state(state, events).nobles[NobleId("rickon-stark")]
    assert rickon.house == "stark"
    assert rickon.status is NobleStatus.IN_PLAY
    assert rickon.attributes == {Attribute.BASTARD, Attribute.CRUEL}


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"house": "martell"}, "unknown_house"),
        ({"noble": "robb-stark"}, "noble_exists"),
        ({"noble": "oberyn-martell"}, "noble_exists"),
        ({"noble": "rickon_stark"}, "bad_noble_id"),
        ({"noble": "Rickon"}, "bad_noble_id"),
        ({"noble": "rickon--stark"}, "bad_noble_id"),
        ({"name": "   "}, "bad_name"),
        ({"gender": "knight"}, "bad_gender"),
        ({"attributes": ("gods_cursed",)}, "bad_attribute"),
        ({"attributes": ("prince_of_westeros",)}, "bad_attribute"),
    ],
)
def test_an_impossible_new_noble_is_refused(changes, code) -> None:
    """R-1.2, R-1.3: a new Noble of a House that plays, with a fresh kebab-case id, a name, a
    gender and only the attributes a Noble may bring into play."""
    fields = {
        "house": "stark",
        "noble": "rickon-stark",
        "name": "Rickon Stark",
        "gender": "lord",
        "attributes": (),
        "cause": "card",
        **changes,
    }

    assert refused(court(), AddNoble(**fields)).code == code


# -- Court Event: Join the Small Council (R-3.5, R-3.2) -----------------------------------------


def test_a_warden_joins_the_small_council_with_a_free_master_title() -> None:
    """R-3.5: a Warden joins through the Court Event; his player picks a free Master title."""
    state = grant(court(), "warden-north", ROBB)

    events = when_fact(state, JoinSmallCouncil(noble=ROBB, title="master-of-laws", cause="card"))

    assert events == (
        TitleGranted(
            title="master-of-laws",
            noble=ROBB,
            cause="Join the Small Council (court event, R-3.5): card",
        ),
    )
    assert then_state(state, events).titles["master-of-laws"] == ROBB


def test_a_noble_who_is_not_a_warden_cannot_join_the_small_council() -> None:
    """R-3.5: only a Warden may join."""
    err = refused(court(), JoinSmallCouncil(noble=ROBB, title="master-of-coin", cause="x"))

    assert err.code == "not_a_warden"
    assert "R-3.5" in err.message


def test_the_hand_cannot_join_the_small_council_he_sits_on() -> None:
    """R-3.5: a Noble already on the council, the Hand as much as a Master, cannot join it
    again (and so can never leave office through an overflow choice, R-3.10)."""
    state = grant(grant(court(), "warden-north", ROBB), "hand", ROBB)

    err = refused(state, JoinSmallCouncil(noble=ROBB, title="master-of-ships", cause="x"))

    assert err.code == "already_on_council"
    assert "Hand of the King" in err.message and "R-3.5" in err.message
    assert not any(
        f["fact"] == "join_the_small_council" and ROBB in f["choices"]["noble"]
        for f in recordable(state)
    )


def test_join_the_small_council_is_recorded_while_another_player_must_choose_a_title() -> None:
    """Section 9: a fact is never held back by a choice a player still has to make."""
    state = grant(waiting_to_take("warden-east", TYWIN), "warden-north", ROBB)

    events = when_fact(state, JoinSmallCouncil(noble=ROBB, title="master-of-ships", cause="x"))

    after = then_state(state, events)
    assert after.titles["master-of-ships"] == ROBB and after.pending == state.pending


@pytest.mark.parametrize(
    ("prepare", "master", "code"),
    [
        (lambda s: s, "hand", "not_a_master_title"),
        (lambda s: s, "no-such-title", "not_a_master_title"),
        (lambda s: grant(s, "master-of-coin", TYWIN), "master-of-coin", "title_taken"),
        (lambda s: grant(s, "master-of-laws", ROBB), "master-of-coin", "already_on_council"),
        (lambda s: grant(s, "hand", ROBB), "master-of-coin", "already_on_council"),
        (lambda s: noble(s, ROBB, outlaw=True), "master-of-coin", "noble_outlaw"),
        (lambda s: captive(s, ROBB), "master-of-coin", "noble_captive"),
        (lambda s: noble(s, ROBB, status=NobleStatus.DEAD), "master-of-coin", "noble_dead"),
    ],
    ids=[
        "hand",
        "unknown-title",
        "taken",
        "already-master",
        "already-hand",
        "outlaw",
        "captive",
        "dead",
    ],
)
def test_an_impossible_join_of_the_small_council_is_refused(prepare, master, code) -> None:
    """R-3.5: a Warden in play, not an Outlaw (R-6.5), not yet a Master, picks a free Master
    title."""
    state = prepare(grant(court(), "warden-north", ROBB))

    err = refused(state, JoinSmallCouncil(noble=ROBB, title=master, cause="x"))

    assert err.code == code


# -- Court Event: Mother of Dragons (R-3.1) -----------------------------------------------------


def test_a_lady_in_play_becomes_mother_of_dragons() -> None:
    """R-3.1: the single Mother of Dragons title, granted by a Court Event."""
    state = court()

    events = when_fact(state, GrantMotherOfDragons(noble=SANSA, cause="dragon eggs"))

    assert events == (
        TitleGranted(
            title="mother-of-dragons",
            noble=SANSA,
            cause="Mother of Dragons (court event): dragon eggs",
        ),
    )
    assert then_state(state, events).titles["mother-of-dragons"] == SANSA


@pytest.mark.parametrize(
    ("prepare", "lady", "code"),
    [
        (lambda s: s, ROBB, "not_a_lady"),
        (lambda s: grant(s, "mother-of-dragons", CATELYN), SANSA, "title_taken"),
        (lambda s: noble(s, SANSA, status=NobleStatus.DEAD), SANSA, "noble_dead"),
        (lambda s: captive(s, SANSA), SANSA, "noble_captive"),
    ],
    ids=["a-lord", "taken", "dead", "captive"],
)
def test_an_impossible_mother_of_dragons_is_refused(prepare, lady, code) -> None:
    """R-3.1: one Mother of Dragons, a living Lady in play."""
    assert refused(prepare(court()), GrantMotherOfDragons(noble=lady, cause="x")).code == code


# -- Court Event: an Heir born (R-3.9) ----------------------------------------------------------


def test_an_heir_is_born() -> None:
    """R-3.9: the Heir is a Lord with the `prince_of_westeros` attribute, by a Court Event."""
    state = court()

    events = when_fact(state, HeirBorn(noble=BRAN, cause="card"))

    assert events == (
        AttributeGained(
            noble=BRAN, attribute="prince_of_westeros", cause="Heir born (court event, R-3.9): card"
        ),
    )
    assert Attribute.PRINCE_OF_WESTEROS in then_state(state, events).nobles[BRAN].attributes


def test_there_is_only_one_heir_at_a_time() -> None:
    """R-3.9: one Heir at a time; a dead Heir makes way for another."""
    state = then_state(court(), when(court(), HeirBorn(noble=BRAN, cause="card")))

    err = refused(state, HeirBorn(noble=TYWIN, cause="card"))

    assert err.code == "heir_exists"
    assert "R-3.9" in err.message
    assert when(noble(state, BRAN, status=NobleStatus.DEAD), HeirBorn(noble=TYWIN, cause="card"))


@pytest.mark.parametrize(
    ("prepare", "lord", "code"),
    [
        (lambda s: s, SANSA, "not_a_lord"),
        (lambda s: captive(s, BRAN), BRAN, "noble_captive"),
        (lambda s: noble(s, BRAN, status=NobleStatus.BROTHER), BRAN, "noble_brother"),
        (lambda s: noble(s, BRAN, status=NobleStatus.DEAD), BRAN, "noble_dead"),
    ],
    ids=["a-lady", "captive", "brother", "dead"],
)
def test_an_impossible_heir_is_refused(prepare, lord, code) -> None:
    """R-3.9: the Heir is a Lord in play."""
    assert refused(prepare(court()), HeirBorn(noble=lord, cause="x")).code == code


# -- the Wall's supplies (R-8.5) ----------------------------------------------------------------


def with_a_lord_commander() -> CourtState:
    state = noble(with_the_watch(), BRAN, status=NobleStatus.BROTHER)
    return grant(state, "lord-commander", BRAN)


def test_the_lord_commander_disposes_of_the_walls_supplies() -> None:
    """R-8.5: a recorded fact with an amount, paid to a House."""
    state = with_a_lord_commander()

    events = when_fact(state, RecordWallSupplies(amount=3, house="tyrell", cause="surplus bids"))

    assert events == (
        GoldAdjusted(
            house="tyrell",
            amount=3,
            cause="Wall supplies disposed by the Lord Commander (R-8.5): surplus bids",
        ),
    )
    assert then_state(state, events).treasury["tyrell"] == state.treasury["tyrell"] + 3


@pytest.mark.parametrize(
    ("state", "command", "code"),
    [
        (court, RecordWallSupplies(amount=3, house="stark", cause="x"), "no_nights_watch"),
        (
            with_the_watch,
            RecordWallSupplies(amount=3, house="stark", cause="x"),
            "no_lord_commander",
        ),
        (
            with_a_lord_commander,
            RecordWallSupplies(amount=0, house="stark", cause="x"),
            "bad_amount",
        ),
        (
            with_a_lord_commander,
            RecordWallSupplies(amount=101, house="stark", cause="x"),
            "bad_amount",
        ),
        (
            with_a_lord_commander,
            RecordWallSupplies(amount=1, house="martell", cause="x"),
            "unknown_house",
        ),
    ],
    ids=["no-watch", "no-lord-commander", "zero", "too-much", "house-not-playing"],
)
def test_impossible_wall_supplies_are_refused(state, command, code) -> None:
    """R-8.5: only with the Night's Watch, while a Lord Commander holds office, 1 to 100 GD."""
    err = refused(state(), command)

    assert err.code == code
    assert code == "unknown_house" or "R-8.5" in err.message


# -- every fact: the host, the cause, a game being played (section 9) ---------------------------

EVERY_FACT = [
    RecordCapture(noble=ROBB, house="lannister", cause="x"),
    RecordRelease(noble=ROBB, cause="x"),
    RecordEscape(noble=ROBB, cause="x"),
    RecordDeath(noble=ROBB, kind="battle", cause="x"),
    AddNoble(house="stark", noble="rickon-stark", name="Rickon", gender="lord", cause="x"),
    JoinSmallCouncil(noble=ROBB, title="master-of-coin", cause="x"),
    GrantMotherOfDragons(noble=SANSA, cause="x"),
    HeirBorn(noble=BRAN, cause="x"),
    RecordWallSupplies(amount=1, house="stark", cause="x"),
]
IDS = [type(c).__name__ for c in EVERY_FACT]


@pytest.mark.parametrize("command", EVERY_FACT, ids=IDS)
@pytest.mark.parametrize("actor", [SPECTATOR, seat(0), seat(1)], ids=["spectator", "0", "1"])
def test_only_the_host_records_a_fact_of_a_nobles_life(command, actor) -> None:
    """Section 9: the host records what happened outside the court."""
    with pytest.raises(NotAllowed) as err:
        when(with_a_lord_commander(), command, actor)

    assert err.value.code == "host_only"


@pytest.mark.parametrize("command", EVERY_FACT, ids=IDS)
@pytest.mark.parametrize("cause", ["", "   ", "x" * 121])
def test_every_fact_of_a_nobles_life_names_its_cause(command, cause) -> None:
    """Section 9: each fact names its cause."""
    state = captive(grant(with_a_lord_commander(), "warden-north", ROBB), ROBB)

    assert refused(state, replace(command, cause=cause)).code == "bad_cause"


@pytest.mark.parametrize("command", EVERY_FACT, ids=IDS)
def test_no_fact_of_a_nobles_life_is_recorded_before_the_game_starts(command) -> None:
    """Section 9: facts are recorded in a game being played."""
    assert refused(given(*lobby(3)), command).code == "game_lobby"


@pytest.mark.parametrize(
    "command",
    [c for c in EVERY_FACT if not isinstance(c, (AddNoble, RecordWallSupplies))],
    ids=[i for i in IDS if i not in ("AddNoble", "RecordWallSupplies")],
)
def test_a_fact_about_an_unknown_noble_is_refused(command) -> None:
    """Section 9: a fact that contradicts the court is refused with a clear reason."""
    assert refused(court(), replace(command, noble="nobody")).code == "unknown_noble"


def test_a_court_event_that_would_ask_a_second_title_choice_waits_for_the_first() -> None:
    """Section 9, R-3.2: the court waits for one choice at a time. A Warden whose High slot is
    full (a title table where he holds one off the council: here the Lord Commander's, granted
    by hand) cannot join while another player's choice waits; the choice made, he can."""
    state = grant(grant(court(), "warden-north", ROBB), "lord-commander", ROBB)
    waiting = grant(waiting_to_take("warden-east", TYWIN), "warden-north", ROBB)
    waiting = grant(waiting, "lord-commander", ROBB)
    join = JoinSmallCouncil(noble=ROBB, title="master-of-ships", cause="x")

    assert refused(waiting, join).code == "title_choice_pending"
    events = when_fact(state, join)
    assert any(isinstance(e, TitleSlotsExceeded) for e in events)
