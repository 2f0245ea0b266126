"""A correction undoes exactly what it corrects (R-9.1): it is checked against every record
after the corrected one, refused with the reason when one of them followed from it (unless it
undoes that record too, as the rules would have had it: a candidacy given back while the
election is open), refused when the court after it would break an invariant (R-3.9 one Heir,
R-6.4 and R-8.3 the Brothers), and a compensation or a record whose subject was recorded
again cannot be corrected. The same check runs at the proposal and at the deciding answer,
and an answer is offered only when it can be carried out."""

from __future__ import annotations

import pytest

from court.commands import (
    Actor,
    AdjustGold,
    AnswerCorrection,
    BuildSept,
    Command,
    EndPurchases,
    HeirBorn,
    OfferRansom,
    Pass,
    RecordCapture,
    RecordDeath,
    RecordVillageControl,
    SendToWall,
    StandForElection,
    StartGame,
)
from court.decide import decide
from court.errors import CourtError
from court.events import (
    BallotsRevealed,
    CorrectionMade,
    DecreeStepOpened,
    ElectionSkipped,
    GoldAdjusted,
    MarriageMade,
    NobleDied,
    TitleGranted,
    TookTheBlack,
    VillageControlChanged,
)
from court.ids import HouseId, NobleId, Seat, TitleId, VillageId
from court.options.legal import legal_commands
from court.soundness.invariants import violations
from court.soundness.settled import unsettled
from court.state import NobleStatus, Phase, Stage
from tests.court.fold_table import proposal
from tests.court.given import HOST, Table, created, joined, pass_decrees, seat, table_step
from tests.court.moments import NORTH, ballot

HOST_SEAT = Actor(seat=Seat(0), host=True)
BRAN, BENJEN, ROBB = NobleId("bran-stark"), NobleId("benjen-stark"), NobleId("robb-stark")
KEVAN, TYWIN, CERSEI = (
    NobleId("kevan-lannister"),
    NobleId("tywin-lannister"),
    NobleId("cersei-lannister"),
)


def court_of(players: int = 3, **profile: object) -> Table:
    """A started game whose host holds seat 0 (Stark; Lannister 1, Tyrell 2), the decree
    steps of round 1 passed."""
    court = Table(
        created(players, **profile),
        joined(0, host=True),
        *(joined(i) for i in range(1, players)),
    )
    court.act(StartGame(), HOST)
    court.add(*pass_decrees(court.state))
    return court


def version_of(court: Table, kind: type, **fields: object) -> int:
    """The version of the last record of this kind with these fields (versions count from 1)."""
    return max(
        i
        for i, e in enumerate(court.events, 1)
        if isinstance(e, kind) and all(getattr(e, k) == v for k, v in fields.items())
    )


def refusal(court: Table, command: Command, actor: Actor = HOST_SEAT) -> CourtError:
    before = list(court.events)
    with pytest.raises(CourtError) as refused:
        decide(court.state, command, actor)
    assert court.events == before
    assert refused.value.message
    return refused.value


def answers(court: Table, voter: int) -> set[bool]:
    """The answers to the correction under vote that seat `voter` is offered."""
    return {
        m.accept
        for m in legal_commands(court.state, seat(voter))
        if isinstance(m, AnswerCorrection)
    }


def sound(court: Table) -> None:
    assert violations(court.state) == [] and unsettled(court.state) == []


def death(court: Table, noble: NobleId = BRAN, kind: str = "battle") -> int:
    court.act(RecordDeath(noble=noble, kind=kind, cause="fell at the Fords"), HOST)
    return version_of(court, NobleDied, noble=noble)


# -- a candidacy withdrawn at a death (R-7.2) -------------------------------------------------


def north_candidacy() -> Table:
    """Round 3 of a 3-player game: Stark holds three villages of the North with Winterfell (4
    votes), Lannister Moat Cailin (1 vote). In the candidacy for Warden of the North (turn
    order from Tyrell, R-1.1) Tyrell passed and Bran Stark stands; Lannister is to act."""
    court = court_of()
    court.next_round()
    for village, house in zip(NORTH, ("stark", "stark", "stark", "lannister"), strict=True):
        court.act(RecordVillageControl(village=village, house=house, cause="battle"), HOST)
    court.next_round()
    court.act(Pass(), seat(2))
    court.act(StandForElection(noble=BRAN), seat(0))
    return court


def north_ballot() -> Table:
    """As `north_candidacy`, Kevan Lannister standing too: the ballot is open, Stark places
    first."""
    court = north_candidacy()
    court.act(StandForElection(noble=KEVAN), seat(1))
    election = court.state.election
    assert election is not None and election.stage is Stage.BALLOT and election.order == (0, 1)
    return court


def test_a_death_corrected_mid_ballot_gives_the_candidacy_back_and_its_votes_count() -> None:
    """R-9.1, R-7.2: given Stark's 4 votes on Bran and Bran's death recorded before the reveal
    (he is withdrawn), when 2 of 3 seats accept the correction of his death, then he lives and
    stands again, and the reveal elects him with his 4 votes, not Kevan with 1."""
    court = north_ballot()
    court.act(ballot(("for", "bran-stark")), seat(0))
    version = death(court)
    assert court.state.election is not None and court.state.election.withdrawn == (BRAN,)

    court.act(proposal(court, version), HOST_SEAT)
    made = court.act(AnswerCorrection(accept=True), seat(2))

    assert [type(e).__name__ for e in made[1:]] == [
        "CorrectionMade",
        "NobleRestored",
        "CandidacyRestored",
    ]
    assert court.state.nobles[BRAN].status is NobleStatus.IN_PLAY
    assert court.state.election is not None and court.state.election.standing == (BRAN, KEVAN)
    sound(court)
    events = court.act(ballot(("for", "kevan-lannister")), seat(1))
    revealed = next(e for e in events if isinstance(e, BallotsRevealed))
    assert revealed.winner == BRAN
    assert {v.noble: v.votes for v in revealed.votes} == {BRAN: 4, KEVAN: 1}


def test_a_death_cannot_be_corrected_once_the_election_he_was_withdrawn_from_was_revealed() -> None:
    """R-9.1, R-7.2: the reveal followed from the withdrawal: the correction is refused naming
    that record, and nothing is recorded."""
    court = north_ballot()
    court.act(ballot(("for", "bran-stark")), seat(0))
    version = death(court)
    court.act(ballot(("for", "kevan-lannister")), seat(1))
    revealed = version_of(court, BallotsRevealed)

    refused = refusal(court, proposal(court, version))

    assert refused.code == "later_record_followed"
    assert f"record {revealed}" in refused.message and "Bran Stark" in refused.message


def test_a_death_cannot_be_corrected_once_the_ballot_opened_without_him() -> None:
    """R-9.1, R-7.2: a candidate who died during the candidacy was left off the ballot that
    opened since; giving his candidacy back would not undo that."""
    court = north_candidacy()
    version = death(court)
    court.act(StandForElection(noble=KEVAN), seat(1))
    assert court.state.election is not None and court.state.election.stage is Stage.BALLOT

    refused = refusal(court, proposal(court, version))

    assert refused.code == "later_record_followed", refused.message


def test_a_correction_lapses_when_the_election_it_gives_a_candidacy_back_in_is_revealed() -> None:
    """R-9.1: proposed mid-ballot, the correction of Bran's death would give his candidacy
    back; when the last ballot is placed before the seats decide, the reveal followed from
    his withdrawal, so the correction lapses, recorded with the reason, and no answer is
    offered."""
    court = north_ballot()
    court.act(ballot(("for", "bran-stark")), seat(0))
    version = death(court)
    court.act(proposal(court, version), HOST_SEAT)
    assert answers(court, 2) == {True, False}

    events = court.act(ballot(("for", "kevan-lannister")), seat(1))

    lapsed = events[-1]
    assert type(lapsed).__name__ == "CorrectionLapsed", events
    assert "Warden of the North" in lapsed.reason or "Bran Stark" in lapsed.reason  # type: ignore[attr-defined]
    assert court.state.table.correction is None
    assert answers(court, 2) == set()
    sound(court)


# -- what a death ends inside its own record (R-5.4) ----------------------------------------


def test_a_death_that_ended_a_marriage_in_a_three_player_game_cannot_be_corrected() -> None:
    """R-9.1, R-5.4: with 3 players a marriage makes no alliance, and the death ends it inside
    its own record; the correction is refused naming the marriage it cannot give back."""
    court = court_of()
    court.add(MarriageMade(lord=ROBB, lady=CERSEI, seats=(Seat(0), Seat(1)), alliance=False))
    version = death(court, ROBB)
    assert court.state.nobles[CERSEI].spouse is None

    refused = refusal(court, proposal(court, version))

    assert refused.code == "death_had_consequences"
    assert "Cersei Lannister" in refused.message and "R-5.4" in refused.message


def test_a_captives_death_cannot_be_corrected_once_the_ransom_offered_for_him_vanished() -> None:
    """R-9.1, R-8.2: the ransom Stark offered for Bran, held by Lannister, vanished at his death
    inside its own record; the correction cannot offer it again and is refused."""
    court = court_of()
    court.act(RecordCapture(noble=BRAN, house=HouseId("lannister"), cause="ambush"), HOST)
    court.act(OfferRansom(captive=BRAN, gold=2), seat(0))
    version = death(court)
    assert court.state.offers == {}

    refused = refusal(court, proposal(court, version))

    assert refused.code == "death_had_consequences" and "R-8.2" in refused.message


def test_a_captives_death_corrected_brings_him_back_a_captive() -> None:
    """R-9.1, R-8.1: a captive without a ransom offered dies; corrected, he is again the
    captive of the same House."""
    court = court_of()
    court.act(RecordCapture(noble=BRAN, house=HouseId("lannister"), cause="ambush"), HOST)
    version = death(court)
    court.act(proposal(court, version), HOST_SEAT)
    court.act(AnswerCorrection(accept=True), seat(1))
    bran = court.state.nobles[BRAN]
    assert (bran.status, bran.captor) == (NobleStatus.CAPTIVE, "lannister")
    sound(court)


# -- an Heir named in his place (R-3.9) -------------------------------------------------------


def test_a_death_of_the_heir_cannot_be_corrected_once_another_heir_was_born() -> None:
    """R-9.1, R-3.9: given Bran the Heir dead and Benjen born Heir, the correction of Bran's
    death would make two Heirs: refused with the rule."""
    court = court_of()
    court.act(HeirBorn(noble=BRAN, cause="born"), HOST)
    version = death(court)
    court.act(HeirBorn(noble=BENJEN, cause="born"), HOST)

    refused = refusal(court, proposal(court, version))

    assert refused.code == "correction_breaks_rules"
    assert "R-3.9" in refused.message and "Heir" in refused.message


def test_the_deciding_answer_is_refused_and_not_offered_once_another_heir_was_born() -> None:
    """R-9.1, R-3.9: proposed while Bran was the only Heir, the correction is still under vote
    when Benjen is born Heir: the deciding acceptance is refused with the rule and is not
    offered; refusing stays offered."""
    court = court_of()
    court.act(HeirBorn(noble=BRAN, cause="born"), HOST)
    version = death(court)
    court.act(proposal(court, version), HOST_SEAT)
    court.act(HeirBorn(noble=BENJEN, cause="born"), HOST)

    assert answers(court, 2) == {False}
    refused = refusal(court, AnswerCorrection(accept=True), seat(2))
    assert refused.code == "correction_breaks_rules" and "R-3.9" in refused.message


# -- a Brother sent in his place (R-6.4, R-8.3) -----------------------------------------------


def hand_sends(court: Table, noble: NobleId) -> None:
    """Tywin, the Hand, sends `noble` to the Wall in 1.1.4 of the next round (R-6.4); every
    other decree turn passes."""
    start = court.state.round
    while court.state.round == start:
        court.add(*table_step(court.state))
    for _ in range(50):
        decree = court.state.decree
        assert decree is not None and decree.current is not None
        if decree.id == "send_to_wall" and decree.current == Seat(1):
            court.act(SendToWall(noble=noble), seat(1))
            return
        court.act(Pass(), seat(decree.current))
    raise AssertionError("the Hand's turn never came")


def brother_died(**profile: object) -> tuple[Table, int]:
    """A Night's Watch game: Tywin Lannister is the Hand, Benjen Stark a Brother; Benjen's
    death at the Wall is recorded."""
    court = court_of(variants__nights_watch=True, **profile)
    court.add(
        TitleGranted(title=TitleId("hand"), noble=TYWIN, cause="elected"),
        TookTheBlack(noble=BENJEN, cause="sent to the Wall by the Hand"),
    )
    return court, death(court, BENJEN, kind="wall")


def test_a_brothers_death_cannot_be_corrected_once_his_house_sent_another_lord() -> None:
    """R-9.1, R-6.4: Stark had no Brother once Benjen died, so Robb took the black; Benjen
    living again would give Stark two Brothers: refused with the rule."""
    court, version = brother_died()
    hand_sends(court, ROBB)
    assert court.state.nobles[ROBB].status is NobleStatus.BROTHER

    refused = refusal(court, proposal(court, version))

    assert refused.code == "correction_breaks_rules" and "R-6.4" in refused.message


def test_the_deciding_answer_is_not_offered_once_his_house_sent_another_lord() -> None:
    """R-9.1, R-6.4: proposed before the Hand sent Robb, the correction's deciding acceptance
    is then refused with the rule (never a defect) and not offered."""
    court, version = brother_died()
    court.act(proposal(court, version), HOST_SEAT)
    hand_sends(court, ROBB)

    assert answers(court, 2) == {False}
    refused = refusal(court, AnswerCorrection(accept=True), seat(2))
    assert refused.code == "correction_breaks_rules" and "R-6.4" in refused.message


def test_a_brothers_death_cannot_be_corrected_past_the_profiles_brother_limit() -> None:
    """R-9.1, R-8.3: with at most 1 Brother (the profile's), Robb took the black once Benjen
    died; Benjen living again would make 2 Brothers: refused naming the profile's limit."""
    court, version = brother_died(night_watch__max_brothers=1)
    hand_sends(court, ROBB)

    refused = refusal(court, proposal(court, version))

    assert refused.code == "correction_breaks_rules"
    assert "at most 1 may (R-8.3)" in refused.message, refused.message


# -- the server's own steps, decided otherwise (R-8.4, R-7.3) ---------------------------------


def test_a_brothers_death_cannot_be_corrected_once_a_step_was_decided_without_him() -> None:
    """R-9.1, R-8.4, R-7.3: with Benjen dead only Kevan is a Brother; the next round's
    Oathbreakers step opened for Lannister alone and its Lord Commander election was skipped.
    With Benjen alive, Stark would have had a turn: refused naming the first of those."""
    court, version = brother_died()
    court.add(TookTheBlack(noble=KEVAN, cause="sent to the Wall by the Hand"))
    court.next_round()
    oathbreakers = version_of(court, DecreeStepOpened, step="oathbreakers")
    assert version_of(court, ElectionSkipped, election="lord-commander") > oathbreakers

    refused = refusal(court, proposal(court, version))

    assert refused.code == "later_record_followed"
    assert f"record {oathbreakers} followed" in refused.message, refused.message
    assert "Oathbreakers" in refused.message


def test_a_death_is_corrected_when_the_steps_since_would_have_gone_the_same() -> None:
    """R-9.1: a Lannister Lord's death recorded in round 1 and a whole round played since:
    no step of the server went otherwise for it, so the correction is made."""
    court = court_of()
    version = death(court, KEVAN)
    court.next_round()
    court.act(proposal(court, version), HOST_SEAT)
    court.act(AnswerCorrection(accept=True), seat(1))
    assert court.state.nobles[KEVAN].status is NobleStatus.IN_PLAY
    sound(court)


# -- villages (R-4.5, R-4.6) ------------------------------------------------------------------


def test_a_village_recorded_again_back_to_the_same_holder_cannot_be_corrected() -> None:
    """R-9.1: Stark, then Lannister, then Stark again: the first record's subject was recorded
    again since, even back to the same holder."""
    court = court_of()
    village = VillageId(NORTH[3])
    for house in ("stark", "lannister", "stark"):
        court.act(RecordVillageControl(village=village, house=HouseId(house), cause="war"), HOST)
    first = next(i for i, e in enumerate(court.events, 1) if isinstance(e, VillageControlChanged))

    refused = refusal(court, proposal(court, first, house=HouseId("tyrell")))

    assert refused.code == "village_changed_since"


def test_a_village_cannot_be_corrected_once_income_was_paid_for_it() -> None:
    """R-9.1, R-4.5: the income paid in phase 3 followed from who held the village: refused
    naming that record."""
    court = court_of()
    village = VillageId(NORTH[3])
    court.act(RecordVillageControl(village=village, house=HouseId("stark"), cause="war"), HOST)
    version = version_of(court, VillageControlChanged)
    while court.state.phase is not Phase.PURCHASES:
        court.add(*table_step(court.state))

    refused = refusal(court, proposal(court, version, house=HouseId("lannister")))

    assert refused.code == "later_record_followed" and "income" in refused.message.lower()


def test_a_village_cannot_be_corrected_once_a_sept_was_built_in_it() -> None:
    """R-9.1, R-4.6: only the House holding a village builds a Sept in it."""
    court = court_of()
    village = VillageId(NORTH[3])
    court.act(RecordVillageControl(village=village, house=HouseId("stark"), cause="war"), HOST)
    version = version_of(court, VillageControlChanged)
    while court.state.phase is not Phase.PURCHASES or court.state.purchase_turns is None:
        court.add(*table_step(court.state))
    turns = court.state.purchase_turns
    while turns is not None and turns.current != Seat(0):
        court.act(EndPurchases(), seat(turns.current))
        turns = court.state.purchase_turns
    court.act(BuildSept(village=village), seat(0))

    refused = refusal(court, proposal(court, version, house=HouseId("lannister")))

    assert refused.code in {"later_record_followed"}, refused.message


# -- gold (R-2.1) -------------------------------------------------------------------------------


@pytest.mark.parametrize(("amount", "code"), [(2, None), (-1, "treasury_too_low")])
def test_gold_spent_since_is_corrected_while_the_treasury_stays_at_zero_or_more(
    amount: int, code: str | None
) -> None:
    """R-9.1, R-2.1: +5 GD recorded for Stark, then 12 GD spent (3 left): what was spent is no
    record that followed from the +5; correcting it to +2 leaves 0 and is made, to -1 would
    leave -3 and is refused."""
    court = court_of()
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"), HOST)
    version = version_of(court, GoldAdjusted)
    court.act(AdjustGold(house=HouseId("stark"), amount=-12, cause="paid an army"), HOST)
    assert court.state.treasury[HouseId("stark")] == 3
    if code is not None:
        assert refusal(court, proposal(court, version, amount=amount)).code == code
        return
    court.act(proposal(court, version, amount=amount), HOST_SEAT)
    court.act(AnswerCorrection(accept=True), seat(1))
    assert court.state.treasury[HouseId("stark")] == 0
    sound(court)


# -- compensations and the records a correction names ----------------------------------------


def test_a_corrections_compensation_cannot_be_corrected() -> None:
    """R-9.1: +5 GD corrected to +2 is compensated by -3 GD; that -3 is no fact the host
    recorded and cannot be corrected."""
    court = court_of()
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"), HOST)
    version = version_of(court, GoldAdjusted)
    court.act(proposal(court, version, amount=2), HOST_SEAT)
    court.act(AnswerCorrection(accept=True), seat(1))
    made = version_of(court, CorrectionMade)

    refused = refusal(court, proposal(court, made + 1, amount=0))

    assert refused.code == "not_correctable"
    assert "compensat" in refused.message and f"record {version}" in refused.message


@pytest.mark.parametrize(("version", "code"), [(1, "not_correctable"), (0, "unknown_record")])
def test_the_first_record_is_no_fact_and_a_missing_record_is_named_so(
    version: int, code: str
) -> None:
    """R-9.1: record 1 is the game's creation, which the host did not record as a fact; a
    version the log does not hold is named with the versions it does."""
    court = court_of()
    refused = refusal(court, proposal(court, version))
    assert refused.code == code
    if version == 1:
        assert "record 1" in refused.message.lower() and "created" in refused.message
    else:
        assert f"1 to {len(court.events)}" in refused.message


def test_every_correction_made_leaves_a_sound_court() -> None:
    """R-9.1: a correction of a death, of gold and of a village made one after another: the
    court passes every invariant after each."""
    court = court_of()
    court.act(AdjustGold(house=HouseId("stark"), amount=5, cause="won a battle"), HOST)
    gold = version_of(court, GoldAdjusted)
    court.act(
        RecordVillageControl(village=VillageId(NORTH[0]), house=HouseId("stark"), cause="war"), HOST
    )
    village = version_of(court, VillageControlChanged)
    dead = death(court, KEVAN)
    for command in (
        proposal(court, gold, amount=2),
        proposal(court, village, house=HouseId("tyrell")),
        proposal(court, dead),
    ):
        court.act(command, HOST_SEAT)
        court.act(AnswerCorrection(accept=True), seat(1))
        sound(court)
    assert court.state.nobles[KEVAN].status is NobleStatus.IN_PLAY
    assert court.state.villages[VillageId(NORTH[0])] == "tyrell"
