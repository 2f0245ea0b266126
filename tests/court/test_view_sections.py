"""Each section of the court view reads only the parts of the court it declares
(court/views/sections.py): a push makes a section again only when one of them changed, so a
part read but not declared would leave pages with a section that no longer is the court's.
Every section is made for every viewer at every version of simulated games (every variant, seats
changing hands, facts at every moment) with a court that records which of its fields are read."""

from __future__ import annotations

from typing import Any

import pytest

from court.commands import SPECTATOR, Actor
from court.state import CourtState
from court.views.sections import OWN, PIECES, SECTIONS, VERSION, Piece, Section, Viewing
from tests.court.reading import FIELDS, Reading, simulated_courts

# (players, seed, every variant on): games reaching every phase, the sale and the clocks.
GAMES = ((3, 11, True), (4, 12, False), (5, 13, True), (6, 14, False))


def viewings(state: CourtState) -> list[Viewing]:
    seats = [Actor(seat=s.seat, host=s.host) for s in state.seats.values()]
    viewers = [SPECTATOR, Actor(host=True), Actor(master=True), *seats]
    handed = {s.seat: s.handed_at for s in state.seats.values()}
    return [Viewing(v, handed.get(v.seat) if v.seat is not None else None) for v in viewers]


def read_by(
    section: Section, state: CourtState, version: int, seen: Viewing, read: set[str]
) -> Any:
    """The section, made with the fields it reads (to be made and to tell the viewers shown
    it apart) added to `read`."""
    made = section.make(Reading(state, read), version, seen)  # type: ignore[arg-type]
    if section.shown is not None:
        section.shown(Reading(state, read), version, seen)  # type: ignore[arg-type]
    return made


@pytest.fixture(scope="module")
def read() -> dict[str, set[str]]:
    """Per section and per piece of one, every field it read in the games ("rules" stands
    for `ruleset` too); and each section made of pieces is checked to be their items."""
    found: dict[str, set[str]] = {s.name: set() for s in SECTIONS}
    found.update({name: set() for name, _ in PIECES})
    for state, version in simulated_courts(GAMES):
        for seen in viewings(state):
            made: dict[str, Any] = {}
            for section in SECTIONS:
                if section.within is None or isinstance(made[section.within], dict):
                    made[section.name] = read_by(section, state, version, seen, found[section.name])
                pieces = [piece_of(section, p, state, seen, found) for p in section.pieces]
                if pieces:
                    assert [item for p in pieces for item in p] == made[section.name]
    return found


def piece_of(
    section: Section, piece: Piece, state: CourtState, seen: Viewing, found: dict[str, set[str]]
) -> tuple[Any, ...]:
    read: set[str] = set()
    made = piece.make(Reading(state, read), seen)  # type: ignore[arg-type]
    found[f"{section.name}/{piece.name}"] |= read
    # A piece kept while it is idle lists nothing then, for any viewer.
    assert piece.idle is None or not piece.idle(state) or made == (), piece.name
    return made


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.name)
def test_a_section_reads_no_part_of_the_court_it_does_not_declare(
    section: Section, read: dict[str, set[str]]
) -> None:
    assert read[section.name] <= set(section.reads), read[section.name] - set(section.reads)


@pytest.mark.parametrize("piece", PIECES, ids=lambda p: p[0])
def test_a_piece_of_a_section_reads_no_part_of_the_court_it_does_not_declare(
    piece: tuple[str, Piece], read: dict[str, set[str]]
) -> None:
    name, made = piece
    assert read[name] <= set(made.reads), read[name] - set(made.reads)


def test_every_declared_part_is_a_part_of_the_court() -> None:
    for section in SECTIONS:
        assert set(section.reads) <= FIELDS | {VERSION}, section.name
        assert all(set(p.reads) <= set(section.reads) for p in section.pieces), section.name


def test_a_viewers_own_section_reads_the_seats_where_a_seats_viewer_stands() -> None:
    """Whether a seat's viewer holds the host role is in `seats`: a section of his own may
    change with it although nothing else it reads did."""
    assert all("seats" in s.reads for s in OWN)


def test_the_games_read_what_most_sections_are_made_of(read: dict[str, set[str]]) -> None:
    """The games reach the moves of every kind of step, the clocks and a marker of one's own:
    the check above sees each section at work."""
    assert {"election", "decree", "auction", "purchase_turns", "offers"} <= read["moves"]
    assert all(read[name] for name, _ in PIECES)
    assert {"banks", "running"} <= read["clocks"]
    assert read["my_markers"] == {"election", "seats"}
    assert all(s.within is None or s.within in read for s in OWN)
