"""The voting core: placements, commitments and the count (R-7.1 steps 3-5)."""

from __future__ import annotations

import pytest

from elections.markers import BallotError, Marker, MarkerKind, check_placement, commitment, ordered
from elections.tally import Revealed, count

FOR, DECOY = MarkerKind.FOR, MarkerKind.DECOY


def r(voter: str, candidate: str, kind: MarkerKind) -> Revealed:
    return Revealed(voter=voter, candidate=candidate, kind=kind)


TABLE = [
    # id, weights, markers, candidates, minimum, votes, winner, reason
    (
        "strict_top_wins",
        {"a": 3, "b": 2},
        [r("a", "x", FOR), r("b", "y", FOR)],
        ["x", "y"],
        0,
        {"x": 3, "y": 2},
        "x",
        "elected",
    ),
    (
        "tie_elects_nobody",
        {"a": 2, "b": 2},
        [r("a", "x", FOR), r("b", "y", FOR)],
        ["x", "y"],
        0,
        {"x": 2, "y": 2},
        None,
        "tie",
    ),
    (
        "decoys_count_for_nothing",
        {"a": 5, "b": 1},
        [r("a", "x", DECOY), r("a", "y", FOR), r("b", "x", FOR)],
        ["x", "y"],
        0,
        {"x": 1, "y": 5},
        "y",
        "elected",
    ),
    (
        "decoy_only_elects_nobody",
        {"a": 4},
        [r("a", "x", DECOY)],
        ["x"],
        0,
        {"x": 0},
        None,
        "no_votes",
    ),
    ("sole_candidate_without_for_vote", {"a": 1, "b": 1}, [], ["x"], 0, {"x": 0}, None, "no_votes"),
    (
        "sole_candidate_with_one_vote",
        {"a": 1},
        [r("a", "x", FOR)],
        ["x"],
        0,
        {"x": 1},
        "x",
        "elected",
    ),
    (
        "minimum_not_reached",
        {"a": 1},
        [r("a", "x", FOR)],
        ["x"],
        2,
        {"x": 1},
        None,
        "below_minimum",
    ),
    (
        "minimum_reached",
        {"a": 1, "b": 1},
        [r("a", "x", FOR), r("b", "x", FOR)],
        ["x", "y"],
        2,
        {"x": 2, "y": 0},
        "x",
        "elected",
    ),
    (
        "excluded_voter_has_no_weight",
        {"a": 2},
        [r("a", "x", FOR), r("c", "y", FOR)],
        ["x", "y"],
        0,
        {"x": 2, "y": 0},
        "x",
        "elected",
    ),
    (
        "zero_weight_voter_counts_nothing",
        {"a": 0, "b": 1},
        [r("a", "x", FOR), r("b", "y", FOR)],
        ["x", "y"],
        0,
        {"x": 0, "y": 1},
        "y",
        "elected",
    ),
    (
        "decoys_do_not_make_a_tie",
        {"a": 2, "b": 2},
        [r("a", "x", FOR), r("b", "y", DECOY)],
        ["x", "y"],
        0,
        {"x": 2, "y": 0},
        "x",
        "elected",
    ),
    (
        "three_way_with_two_leaders",
        {"a": 2, "b": 2, "c": 1},
        [r("a", "x", FOR), r("b", "y", FOR), r("c", "z", FOR)],
        ["x", "y", "z"],
        0,
        {"x": 2, "y": 2, "z": 1},
        None,
        "tie",
    ),
    ("no_candidates", {"a": 1}, [], [], 0, {}, None, "no_candidate"),
]


@pytest.mark.parametrize(
    ("weights", "markers", "candidates", "minimum", "votes", "winner", "reason"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_the_count_follows_r_7_1(weights, markers, candidates, minimum, votes, winner, reason):
    """R-7.1 steps 4-5: FOR moves all votes; decoys nothing; strict top and minimum."""
    tally = count(weights, markers, candidates, minimum)
    assert (tally.votes, tally.winner, tally.reason) == (votes, winner, reason)


def m(kind: MarkerKind, candidate: str = "x", salt: str = "s1") -> Marker:
    return Marker(kind=kind, candidate=candidate, salt=salt)


@pytest.mark.parametrize(
    "markers",
    [[], [m(FOR)], [m(DECOY)], [m(FOR), m(DECOY, "y", "s2")], [m(FOR), m(DECOY, "x", "s2")]],
)
def test_a_player_places_none_one_or_both_markers_on_any_candidates(markers) -> None:
    check_placement(markers, ["x", "y"])


@pytest.mark.parametrize(
    ("markers", "code"),
    [
        ([m(FOR), m(FOR, "y", "s2")], "duplicate_marker"),
        ([m(DECOY), m(DECOY, "y", "s2")], "duplicate_marker"),
        ([m(FOR), m(DECOY, "y", "s2"), m(FOR, "x", "s3")], "too_many_markers"),
        ([m(FOR, "z")], "not_a_candidate"),
        ([m(FOR), m(DECOY, "y", "s1")], "reused_salt"),
    ],
)
def test_an_impossible_placement_is_refused(markers, code) -> None:
    with pytest.raises(BallotError) as err:
        check_placement(markers, ["x", "y"])
    assert err.value.code == code


def test_a_commitment_binds_kind_candidate_and_salt() -> None:
    c = commitment("for", "x", "abc")
    assert c == m(FOR, "x", "abc").commitment
    assert (
        len(
            {
                c,
                commitment("decoy", "x", "abc"),
                commitment("for", "y", "abc"),
                commitment("for", "x", "abd"),
            }
        )
        == 4
    )


def test_placement_order_says_nothing_about_kinds() -> None:
    """Markers are published in commitment order, so 'FOR first' leaks nothing."""
    firsts = set()
    for i in range(40):
        pair = [m(FOR, "x", f"a{i}"), m(DECOY, "y", f"b{i}")]
        firsts.add(ordered(pair)[0].kind)
    assert firsts == {FOR, DECOY}
