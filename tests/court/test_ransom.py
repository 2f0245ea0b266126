"""Ransom: offers by the captive's player, accepted or refused by the captor's player, paid at
once in one event (R-8.2, R-2.1, R-1.4)."""

from __future__ import annotations

import pytest

from court.commands import (
    AcceptRansom,
    OfferRansom,
    RecordDeath,
    RecordRelease,
    RefuseRansom,
    WithdrawRansom,
)
from court.errors import CourtError, NotAllowed
from court.events.purchases import RansomOffered, RansomPaid, RansomRefused, RansomWithdrawn
from court.ids import NobleId
from court.options.legal import legal_commands
from court.state import NobleStatus, RansomOffer
from tests.court.given import seat, then_state, when
from tests.court.moments import act, captives, noble
from tests.court.purchase_moments import with_gold


def offer(gold: int = 0, *held: str, captive: str = "robb-stark") -> OfferRansom:
    return OfferRansom(
        captive=NobleId(captive), gold=gold, captives=tuple(NobleId(n) for n in held)
    )


def test_the_captives_player_offers_gold_and_captives_at_any_time() -> None:
    """R-8.2 [D]: offers at any time (here in the cards phase); open offers are public."""
    state = captives()
    events = when(state, offer(3, "tyrion-lannister"), seat(0))
    assert events == (
        RansomOffered(
            offer=1,
            seat=0,
            to_seat=1,
            captive="robb-stark",
            gold=3,
            captives=("tyrion-lannister",),
        ),
    )
    state = then_state(state, events)
    assert state.offers[1] == RansomOffer(
        id=1, seat=0, to_seat=1, captive="robb-stark", gold=3, captives=("tyrion-lannister",)
    )
    assert state.next_offer == 2
    state = act(state, offer(5), seat(0))
    assert sorted(state.offers) == [1, 2]


def test_a_ransom_accepted_moves_gold_and_frees_captives_in_one_event() -> None:
    """R-8.2: on acceptance gold and Nobles change hands at once, in the same event."""
    state = act(captives(), offer(3, "tyrion-lannister"), seat(0))
    events = when(state, AcceptRansom(offer=1), seat(1))
    assert events == (
        RansomPaid(
            offer=1,
            house="stark",
            to_house="lannister",
            captive="robb-stark",
            gold=3,
            captives=("tyrion-lannister",),
        ),
    )
    state = then_state(state, events)
    assert state.treasury == {"stark": 7, "lannister": 13, "tyrell": 10}
    for freed in ("robb-stark", "tyrion-lannister"):
        assert state.nobles[freed].status is NobleStatus.IN_PLAY
        assert state.nobles[freed].captor is None
    assert state.offers == {}


def test_a_captive_of_a_third_house_offered_passes_into_the_captors_hands() -> None:
    """R-8.2: Nobles change hands; Loras, a Tyrell, goes from Stark's hands to Lannister's."""
    state = act(captives(), offer(0, "loras-tyrell"), seat(0))
    state = act(state, AcceptRansom(offer=1), seat(1))
    loras = state.nobles["loras-tyrell"]
    assert loras.status is NobleStatus.CAPTIVE and loras.captor == "lannister"
    assert state.nobles["robb-stark"].status is NobleStatus.IN_PLAY


def test_a_ransom_the_payer_cannot_afford_at_acceptance_is_refused() -> None:
    """R-2.1: the treasury rule applies when the ransom is paid."""
    state = act(captives(), offer(8), seat(0))
    state = with_gold(state, "stark", 7)
    with pytest.raises(CourtError) as err:
        when(state, AcceptRansom(offer=1), seat(1))
    assert err.value.code == "treasury_too_low"
    assert 1 in state.offers


@pytest.mark.parametrize("actor", [0, 2])
def test_only_the_captors_seat_accepts_or_refuses_a_ransom(actor: int) -> None:
    """R-8.2: the captor's player accepts or refuses."""
    state = act(captives(), offer(2), seat(0))
    for command in (AcceptRansom(offer=1), RefuseRansom(offer=1)):
        with pytest.raises(CourtError) as err:
            when(state, command, seat(actor))
        assert err.value.code == "not_your_offer"
        assert isinstance(err.value, NotAllowed)  # the seat may not send it at all


def test_the_captor_refuses_a_ransom_and_the_captive_stays() -> None:
    """R-8.2: refused, nothing changes hands."""
    state = act(captives(), offer(2), seat(0))
    events = when(state, RefuseRansom(offer=1), seat(1))
    assert events == (RansomRefused(offer=1),)
    state = then_state(state, events)
    assert state.offers == {} and state.nobles["robb-stark"].status is NobleStatus.CAPTIVE
    with pytest.raises(CourtError) as err:
        when(state, AcceptRansom(offer=1), seat(1))
    assert err.value.code == "unknown_offer"


def test_only_the_offering_player_withdraws_his_offer() -> None:
    """An offer stands until accepted, refused or taken back by its maker."""
    state = act(captives(), offer(2), seat(0))
    with pytest.raises(CourtError) as err:
        when(state, WithdrawRansom(offer=1), seat(1))
    assert err.value.code == "not_your_offer"
    events = when(state, WithdrawRansom(offer=1), seat(0))
    assert events == (RansomWithdrawn(offer=1),)
    assert then_state(state, events).offers == {}


@pytest.mark.parametrize(
    ("actor", "command", "code"),
    [
        (1, offer(2), "not_your_noble"),
        (0, offer(2, captive="eddard-stark"), "not_captive"),
        (0, offer(0), "empty_offer"),
        (0, offer(-1), "bad_amount"),
        (0, offer(11), "treasury_too_low"),
        (0, offer(0, "jaime-lannister"), "not_your_captive"),
        (0, offer(0, "tyrion-lannister", "tyrion-lannister"), "duplicate_captive"),
        (0, offer(2, captive="nobody"), "unknown_noble"),
    ],
)
def test_an_offer_the_rules_forbid_is_refused(actor, command, code) -> None:
    """R-8.2: for one of your captive Nobles, with gold you hold and/or captives you hold."""
    with pytest.raises(CourtError) as err:
        when(captives(), command, seat(actor))
    assert err.value.code == code


@pytest.mark.parametrize(
    "fact",
    [
        RecordRelease(noble="robb-stark", cause="released by Tywin"),
        RecordDeath(noble="robb-stark", kind="battle", cause="the Red Wedding"),
    ],
    ids=["released", "died"],
)
def test_offers_for_a_captive_vanish_when_he_is_freed_or_dies(fact) -> None:
    """R-8.2, R-1.4: nothing is left to ransom."""
    state = act(act(captives(), offer(2), seat(0)), offer(1, "loras-tyrell"), seat(0))
    state = act(state, fact)
    assert state.offers == {}


def test_an_offer_whose_offered_captive_changed_hands_is_refused_at_acceptance() -> None:
    """R-8.2: the Nobles offered must still be the offerer's captives when he pays."""
    state = act(captives(), offer(1, "tyrion-lannister"), seat(0))
    state = act(state, RecordRelease(noble="tyrion-lannister", cause="let go"))
    with pytest.raises(CourtError) as err:
        when(state, AcceptRansom(offer=1), seat(1))
    assert err.value.code == "offer_stale"


def test_the_captives_player_is_offered_gold_captives_and_both_as_ransom_moves() -> None:
    """R-8.2: the moves listed for Stark, whose Robb Lannister holds: Gold Dragons (1 or his
    whole treasury: the amount is his to type), each captive he holds, or both; each is taken.
    Lannister offers for Tyrion, Robb among what he may give."""
    state = captives()
    listed = [m for m in legal_commands(state, seat(0)) if isinstance(m, OfferRansom)]
    assert sorted(listed, key=repr) == sorted(
        [
            offer(1),
            offer(10),
            offer(0, "tyrion-lannister"),
            offer(0, "loras-tyrell"),
            offer(1, "tyrion-lannister"),
            offer(1, "loras-tyrell"),
        ],
        key=repr,
    )
    for move in listed:
        assert isinstance(when(state, move, seat(0))[0], RansomOffered)
    theirs = {m for m in legal_commands(state, seat(1)) if isinstance(m, OfferRansom)}
    tyrion = "tyrion-lannister"
    assert offer(1, "robb-stark", captive=tyrion) in theirs
    assert {m.captive for m in theirs} == {tyrion}


def test_an_offer_whose_gold_the_house_can_no_longer_pay_is_not_listed_for_acceptance() -> None:
    """R-8.2, R-2.1: Stark offered 8 GD, then lost gold; Lannister may refuse the offer but not
    accept it until Stark can pay, and is not offered to."""
    state = act(captives(), offer(8), seat(0))
    assert AcceptRansom(offer=1) in legal_commands(state, seat(1))
    poorer = with_gold(state, "stark", 5)
    moves = legal_commands(poorer, seat(1))
    assert AcceptRansom(offer=1) not in moves and RefuseRansom(offer=1) in moves
    with pytest.raises(CourtError) as err:
        when(poorer, AcceptRansom(offer=1), seat(1))
    assert err.value.code == "treasury_too_low"


def test_an_offer_of_a_captive_who_went_home_is_not_listed_for_acceptance() -> None:
    """R-8.2: Tyrion, offered, was released since: the offer can no longer be honoured."""
    state = act(captives(), offer(0, "tyrion-lannister"), seat(0))
    freed = noble(state, "tyrion-lannister", status=NobleStatus.IN_PLAY, captor=None)
    assert AcceptRansom(offer=1) not in legal_commands(freed, seat(1))
    with pytest.raises(CourtError) as err:
        when(freed, AcceptRansom(offer=1), seat(1))
    assert err.value.code == "offer_stale"
