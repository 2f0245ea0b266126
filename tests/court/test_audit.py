"""Deep verification (section 10): a log re-chained after an edit is still caught when a
reveal contradicts the commitments made at placement, a tally or a sale does not follow
from the markers or bids, a die roll does not follow from the seed, an invariant breaks,
or an id, a name, a time or a seat is not one the court would have written."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from court.audit import audit
from court.commands import (
    AdvancePhase,
    EmbraceRhllor,
    Pass,
    PlaceBid,
    RecordDeath,
    RecordVillageControl,
)
from court.decide.council_seat import bid_commitment
from court.events import SeptBuilt, TitleGranted
from court.ids import NobleId, TitleId
from tests.court.chained_logs import Line, chained, north_ballot, rechain, records
from tests.court.given import Table, seat, started, table_step
from tests.court.moments import ballot


def _index(lines: list[Line], kind: str, nth: int = 0) -> int:
    return [i for i, line in enumerate(lines) if line["type"] == kind][nth]


@pytest.fixture(scope="module")
def election() -> list[Line]:
    """A Warden election of round 2 (`north_ballot`): Lannister places FOR Jaime, Stark FOR
    Robb and a DECOY on Jaime; Robb wins, 4 votes to 1."""
    table = north_ballot()
    table.act(ballot(("for", "jaime-lannister"), salt="l"), seat(1))
    table.act(ballot(("for", "robb-stark"), ("decoy", "jaime-lannister"), salt="s"), seat(0))
    return chained(table.events)


def test_an_honest_log_passes_every_check(election: list[Line]) -> None:
    result = audit(records(election))
    assert result.ok, result
    assert result.records == len(election) and result.notes == ()
    reveal = election[_index(election, "BallotsRevealed")]["data"]
    assert reveal["winner"] == "robb-stark"


def swap_kinds(lines: list[Line], everywhere: bool) -> None:
    """FOR and DECOY of Stark's markers swapped in the reveal, its count redone to match (and
    in Stark's own secrets)."""
    reveal = lines[_index(lines, "BallotsRevealed")]
    for marker in reveal["data"]["markers"]:
        if marker["seat"] == 0:
            marker["kind"] = "decoy" if marker["kind"] == "for" else "for"
    reveal["data"]["votes"] = [
        {"noble": "jaime-lannister", "votes": 5},
        {"noble": "robb-stark", "votes": 0},
    ]
    reveal["data"]["winner"] = "jaime-lannister"
    if everywhere:
        placed = lines[_index(lines, "BallotPlaced", 1)]
        for secret in placed["private"]["secrets"]:
            secret["kind"] = "decoy" if secret["kind"] == "for" else "for"


@pytest.mark.parametrize("everywhere", [False, True], ids=["reveal-only", "secrets-too"])
def test_swapped_for_and_decoy_markers_are_caught_though_the_chain_was_recomputed(
    election: list[Line], everywhere: bool
) -> None:
    """Section 10, R-7.1 step 3: every revealed marker opens the commitment published when it
    was placed, whatever the forger recomputed after."""
    lines = copy.deepcopy(election)
    swap_kinds(lines, everywhere)
    result = audit(rechain(lines))
    assert not result.ok and result.check == "commitments"
    first = _index(lines, "BallotPlaced", 1) if everywhere else _index(lines, "BallotsRevealed")
    assert result.bad_index == first and result.bad_version == first + 1
    assert "commitment" in result.reason


def test_a_tally_that_does_not_follow_from_the_markers_is_caught(election: list[Line]) -> None:
    """R-7.1 steps 4-5: the votes and the winner recompute from the opened markers and the
    votes recorded when the ballot opened."""
    lines = copy.deepcopy(election)
    lines[_index(lines, "BallotsRevealed")]["data"]["votes"] = [
        {"noble": "jaime-lannister", "votes": 1},
        {"noble": "robb-stark", "votes": 9},
    ]
    result = audit(rechain(lines))
    assert not result.ok and result.check == "tally"
    assert result.bad_version == _index(lines, "BallotsRevealed") + 1


Edit = Callable[[list[Line]], None]


def _field(kind: str, key: str, value: Any) -> Edit:
    def edit(lines: list[Line]) -> None:
        lines[_index(lines, kind)][key] = value

    return edit


def _name(value: str) -> Edit:
    def edit(lines: list[Line]) -> None:
        lines[_index(lines, "SeatJoined")]["data"]["player_name"] = value

    return edit


def _game(value: str) -> Edit:
    def edit(lines: list[Line]) -> None:
        for line in lines:
            line["game_id"] = value
        lines[0]["data"]["game_id"] = value

    return edit


def _ballot_seat(lines: list[Line]) -> None:
    lines[_index(lines, "BallotPlaced", 1)]["seat"] = 2


@pytest.mark.parametrize(
    ("edit", "check"),
    [
        (_game("../../etc/x"), "record"),
        (_game("<script>alert(1)</script>"), "record"),
        (_game(""), "record"),
        (_name("x" * 100_000), "names"),
        (_name("Robb\x00Stark"), "names"),
        (_name(" "), "names"),
        (_field("GameStarted", "recorded_at", "not a date"), "record"),
        (_field("GameStarted", "recorded_at", "2026-02-30T10:00:00.000000Z"), "record"),
        (_field("GameStarted", "seat", 9), "record"),
        (_ballot_seat, "record"),
    ],
    ids=[
        "path-id",
        "script-id",
        "empty-id",
        "long-name",
        "nul-name",
        "blank-name",
        "not-a-date",
        "no-such-day",
        "seat-never-taken",
        "ballot-shown-to-another-seat",
    ],
)
def test_ids_names_times_and_seats_pass_the_apis_checks(
    election: list[Line], edit: Edit, check: str
) -> None:
    """Section 10: what the API would refuse is refused in a log too, re-chained or not."""
    lines = copy.deepcopy(election)
    edit(lines)
    result = audit(rechain(lines))
    assert not result.ok and result.check == check, result


def test_a_sale_result_that_does_not_follow_from_the_bids_is_caught() -> None:
    """R-4.6: every revealed bid opens its commitment; the highest wins."""
    table = Table(*started(3))
    for title, lord in (("warden-north", "robb-stark"), ("warden-west", "jaime-lannister")):
        table.add(TitleGranted(title=TitleId(title), noble=NobleId(lord), cause="test"))
    while table.state.auction is None:
        table.act(AdvancePhase())
    table.act(PlaceBid(amount=9, salt="a"), seat(0))
    table.act(PlaceBid(amount=2, salt="b"), seat(1))
    lines = chained(table.events)
    assert audit(records(lines)).ok
    reveal = lines[_index(lines, "BidsRevealed")]["data"]
    assert reveal["winner"] == 0
    reveal["bids"][0]["amount"] = 1  # "Stark bid 1", so that Lannister's 2 would have won
    reveal["winner"] = 1
    result = audit(rechain(lines))
    assert not result.ok and result.check == "commitments"


def _sale_with_a_dropped_top_bid() -> list[Line]:
    """Stark bids 9 and loses Robb, his only Warden; Lannister's 2 buys the seat (R-4.6)."""
    table = Table(*started(3))
    for title, lord in (("warden-north", "robb-stark"), ("warden-west", "jaime-lannister")):
        table.add(TitleGranted(title=TitleId(title), noble=NobleId(lord), cause="test"))
    while table.state.auction is None:
        table.act(AdvancePhase())
    table.act(PlaceBid(amount=9, salt="a"), seat(0))
    table.act(RecordDeath(noble=NobleId("robb-stark"), kind="battle", cause="the Twins"))
    table.act(PlaceBid(amount=2, salt="b"), seat(1))
    return chained(table.events)


def test_a_bid_dropped_for_want_of_a_warden_is_checked_against_the_court() -> None:
    """R-4.6 [D]: the reveal marks the bids of players with no Warden to seat, drops them, and
    the highest remaining bid buys; a mark the court does not bear out is caught."""
    lines = _sale_with_a_dropped_top_bid()
    assert audit(records(lines)).ok
    reveal = lines[_index(lines, "BidsRevealed")]["data"]
    assert [b["no_warden"] for b in reveal["bids"]] == [True, False] and reveal["winner"] == 1
    reveal["bids"][0]["no_warden"] = False
    result = audit(rechain(lines))
    assert not result.ok and result.check == "bids"


def test_a_reveal_recorded_before_bids_were_dropped_is_judged_by_the_rule_of_its_time() -> None:
    """R-4.6: a log from before the rule marks no bid; its top bidder without a Warden sold
    nothing then, and verifies so; the same reveal claiming a sale does not."""
    lines = _sale_with_a_dropped_top_bid()
    at = _index(lines, "BidsRevealed")
    reveal = lines[at]["data"]
    for bid in reveal["bids"]:
        del bid["no_warden"]
    reveal.update(winner=None, reason="no_warden", deadline=None)
    del lines[at + 1 :]  # nothing paid, nothing after
    assert audit(rechain(copy.deepcopy(lines))).ok
    reveal.update(winner=1, reason="highest_bid")
    result = audit(rechain(lines))
    assert not result.ok and result.check == "bids"


@pytest.mark.parametrize(
    ("amount", "salt"),
    [("9", "a"), (None, "a"), (-9, "a"), (9, None)],
    ids=["amount-as-text", "no-amount", "negative-amount", "no-salt"],
)
def test_a_sealed_bid_whose_secret_is_no_bid_is_caught_though_it_opens_its_commitment(
    amount: Any, salt: Any
) -> None:
    """R-4.6, section 10: a bid's secret is a whole number of Gold Dragons and a salt, even
    when a forger made its commitment from whatever he wrote there ("bid:9:a" is the same
    text for 9 and "9"), and even in a log that ends before the reveal."""
    table = Table(*started(3))
    table.add(TitleGranted(title=TitleId("warden-north"), noble=NobleId("robb-stark"), cause="t"))
    while table.state.auction is None:
        table.act(AdvancePhase())
    table.act(PlaceBid(amount=9, salt="a"), seat(0))
    lines = chained(table.events)
    lines = lines[: _index(lines, "BidPlaced") + 1]  # an export made before the reveal
    assert audit(records(lines)).ok
    placed = lines[-1]
    placed["private"]["secret"] = {"amount": amount, "salt": salt}
    placed["data"]["commitment"] = bid_commitment(amount, salt)
    result = audit(rechain(lines))
    assert not result.ok and result.check == "bids", result
    assert result.bad_version == len(lines)


def test_a_die_roll_that_does_not_follow_from_the_seed_is_caught() -> None:
    """R-6.2, section 10: roll n is HMAC-SHA256(seed, "d6:<n>") reduced to 1-6; the seed's
    SHA-256 was published in the first event."""
    table = Table(*started(4))
    for title in ("king", "protector", "hand"):
        table.add(TitleGranted(title=TitleId(title), noble=NobleId("eddard-stark"), cause="t"))
    table.act(RecordVillageControl(village="winterfell", house="stark", cause="battle"))
    table.add(SeptBuilt(village="winterfell", house="stark"))
    start = table.state.round
    while table.state.round == start:
        table.add(*table_step(table.state))
    while table.state.decree is not None and table.state.decree.id != "false_idols":
        table.act(Pass(), seat(table.state.decree.current))
    table.act(EmbraceRhllor(hand_converts=True), seat(0))
    lines = chained(table.events)
    assert audit(records(lines)).ok
    rolled = lines[_index(lines, "DieRolled")]
    rolled["data"]["value"] = rolled["data"]["value"] % 6 + 1
    result = audit(rechain(lines))
    assert not result.ok and result.check == "dice"
    assert result.bad_version == _index(lines, "DieRolled") + 1


def _forgeries(lines: list[Line]) -> list[tuple[int, str, Any]]:
    """Every public field of every record replaced by values of the wrong JSON type."""
    wrong: list[Any] = [[1, 2], {"x": 1}, -1, "x", None, 1.5, [[None]]]
    return [
        (i, key, value)
        for i, line in enumerate(lines)
        for key in line["data"]
        for value in wrong
        if value != line["data"][key]
    ]


# Every forgery audits the whole log again: about a minute, left to `make test`.
@pytest.mark.slow
def test_a_forged_field_of_any_type_fails_a_check_and_never_breaks_the_audit(
    election: list[Line],
) -> None:
    """Import and verify read logs from anyone: a forged value of any JSON type in any field
    (the chain recomputed over it) is a failed check with a reason, never an exception."""
    refused = 0
    for index, key, value in _forgeries(election):
        lines = copy.deepcopy(election)
        lines[index]["data"][key] = value
        result = audit(rechain(lines))  # must not raise
        refused += not result.ok
        assert result.ok or (result.check and result.reason)
    assert refused > 0
