"""Names a player types (R-1.2): invisible, control and direction-changing characters are refused
with a sentence saying which; what is kept is NFC-normalised."""

from __future__ import annotations

import unicodedata

import pytest

from court.audit.failed import Failed
from court.audit.record import names
from court.commands import JoinSeat
from court.errors import CourtError
from court.events import SeatJoined
from court.log.chain import Record
from court.model.text import clean_cause, clean_name
from tests.court.given import created, given, when

REFUSED = [
    ("Ann\u202eevE", "changes the direction of the text (U+202E RIGHT-TO-LEFT OVERRIDE)"),
    ("Ann\u2067", "changes the direction of the text (U+2067 RIGHT-TO-LEFT ISOLATE)"),
    ("A\u200bnn", "is invisible (U+200B ZERO WIDTH SPACE)"),
    ("\ufeff", "is invisible (U+FEFF ZERO WIDTH NO-BREAK SPACE)"),
    ("Bo\u200db", "is invisible (U+200D ZERO WIDTH JOINER)"),
    ("\u3164", "is invisible (U+3164 HANGUL FILLER)"),
    ("Ann\u00ad", "is invisible (U+00AD SOFT HYPHEN)"),
    ("Ann\x07", "control character (U+0007)"),
    ("\u0301Ann", "starts with a mark"),
    ("x" + "\u0301" * 5, "more than 4 marks"),
]


@pytest.mark.parametrize(("typed", "why"), REFUSED)
def test_a_name_that_hides_or_turns_characters_is_refused_saying_which(
    typed: str, why: str
) -> None:
    # Given a game in its lobby
    state = given(created())
    # When a player joins under a name holding such a character
    with pytest.raises(CourtError) as err:
        when(state, JoinSeat(house="stark", player_name=typed, token_sha256="e" * 64))
    # Then the join is refused as a bad name, with a sentence naming the character
    assert err.value.code == "bad_name"
    assert why in err.value.message


def test_a_name_is_kept_in_its_composed_form() -> None:
    # Given a game in its lobby
    state = given(created())
    # When Amélie joins typing the e and its accent as two code points
    decomposed = "Ame\u0301lie"
    (event,) = when(state, JoinSeat(house="stark", player_name=decomposed, token_sha256="e" * 64))
    # Then the log keeps the one composed letter, as another device would type it
    assert isinstance(event, SeatJoined)
    assert event.player_name == "Amélie" == unicodedata.normalize("NFC", decomposed)


@pytest.mark.parametrize("name", ["Zoë 🐉", "Ямщиков", "عائشة", "小明", "Ngũgĩ"])
def test_names_of_every_script_are_taken(name: str) -> None:
    assert clean_name(name) == name


def test_a_cause_cannot_turn_the_history_around() -> None:
    # Given a host recording a fact, When its cause holds a right-to-left override
    with pytest.raises(CourtError) as err:
        clean_cause("Battle \u202eof the Trident")
    # Then it is refused like a name
    assert err.value.code == "bad_cause"


def test_an_imported_log_with_an_invisible_name_does_not_verify() -> None:
    # Given a record of a join whose name holds a zero-width space (written by hand)
    event = SeatJoined(
        seat=0, house="stark", player_name="A\u200bnn", host=False, token_sha256="e" * 64
    )
    record = Record(
        game_id="g1", version=2, type="SeatJoined", schema_version=1,
        recorded_at="2026-11-24T00:00:00Z", seat=None, data={}, private=None,
        private_sha256="", hash="",
    )  # fmt: skip
    # When the deep check reads its names, Then it fails on the names check
    with pytest.raises(Failed) as failed:
        names(record, event)
    assert "invisible" in str(failed.value)
