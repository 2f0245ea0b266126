"""Turn order round the table (R-1.1): clockwise from the First Player, skipping the seats
with no part in a step, and the First Player marker passing one seat clockwise."""

from __future__ import annotations

import pytest

from elections.turns import next_clockwise, turn_order


@pytest.mark.parametrize(
    ("seats", "first", "order"),
    [
        ((0, 1, 2), 0, (0, 1, 2)),
        ((0, 1, 2), 2, (2, 0, 1)),
        ((3, 1, 2, 0), 2, (2, 0, 3, 1)),
        ((3, 1, 2, 0), 3, (3, 1, 2, 0)),
        ((5,), 5, (5,)),
    ],
)
def test_turns_go_clockwise_from_the_first_player(
    seats: tuple[int, ...], first: int, order: tuple[int, ...]
) -> None:
    """R-1.1: given seats in their clockwise order, the turns start with the First Player."""
    assert turn_order(seats, first) == order


def test_without_a_first_player_the_seats_keep_the_order_they_sit_in() -> None:
    assert turn_order((2, 0, 1), None) == (2, 0, 1)
    assert turn_order((), None) == ()


def test_seats_with_no_part_are_skipped_and_the_others_keep_their_turns() -> None:
    """R-1.1, R-4.2: a step's turns go, in turn order, to the seats with a part in it."""
    seats = (0, 1, 2, 3, 4)
    assert turn_order(seats, 3, lambda s: s % 2 == 0) == (4, 0, 2)
    assert turn_order(seats, 3, lambda s: s in {3, 1}) == (3, 1)
    assert turn_order(seats, 3, lambda s: ()) == ()
    assert turn_order(seats, None, lambda s: s > 2) == (3, 4)


@pytest.mark.parametrize(
    ("seats", "seat", "following"),
    [
        ((0, 1, 2), 0, 1),
        ((0, 1, 2), 2, 0),
        ((3, 1, 2, 0), 0, 3),
        ((3, 1, 2, 0), 1, 2),
        ((5,), 5, 5),
    ],
)
def test_the_first_player_marker_passes_to_the_left_round_the_table(
    seats: tuple[int, ...], seat: int, following: int
) -> None:
    """R-1.1: at the start of a round the marker passes one seat clockwise."""
    assert next_clockwise(seats, seat) == following
