"""Table talk and whispers, the pure part: who talks to whom, what a line may hold, and each
channel's hash chain."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court import talk
from court.commands import Actor
from court.errors import CourtError
from court.ids import Seat
from court.log.chain import GENESIS
from court.talk import ChannelHead, Said, TalkLine, chained_line, check_channel, check_channels
from tests.court.given import given, lobby


def said(channel: str = talk.TABLE, text: str = "Winter is coming", **kw) -> Said:
    fields = {
        "game_id": "g1",
        "channel": channel,
        "sender": "seat:0",
        "recipients": ("seat:1", "seat:2"),
        "court_version": 7,
        "said_at": "2026-12-01T10:00:00.000000Z",
        "text": text,
        **kw,
    }
    return Said(**fields)


def channel_of(*texts: str, channel: str = talk.TABLE) -> list[TalkLine]:
    lines: list[TalkLine] = []
    for text in texts:
        head = ChannelHead(lines[-1].number, lines[-1].hash) if lines else None
        lines.append(chained_line(said(channel, text), head))
    return lines


def test_given_a_new_channel_when_a_line_is_said_then_it_opens_the_chain() -> None:
    line = chained_line(said(), None)
    assert (line.number, line.prev_hash) == (1, GENESIS)
    assert line.hash == talk.line_hash(GENESIS, line.hashed_fields())


def test_given_a_channel_when_lines_follow_then_each_links_to_the_one_before() -> None:
    lines = channel_of("one", "two", "three")
    assert [line.number for line in lines] == [1, 2, 3]
    assert [line.prev_hash for line in lines[1:]] == [line.hash for line in lines[:-1]]
    check = check_channel(talk.TABLE, lines)
    assert check.ok and check.lines == 3 and check.head == lines[-1].hash


def test_given_lines_said_before_signatures_when_checked_then_they_are_counted_unsigned() -> None:
    """Given a channel whose first two lines were said before the server signed talk lines,
    when it is checked, then they are counted unsigned and the signed ones after are checked."""
    first, second, third = channel_of("one", "two", "three")
    lines = [first, second, replace(third, signature="good")]
    check = check_channel(talk.TABLE, lines, signed=lambda line: line.signature == "good")
    assert (check.ok, check.lines, check.unsigned) == (True, 3, 2)
    assert check.to_json()["unsigned"] == 2


@pytest.mark.parametrize("dropped", [2, 3])
def test_given_a_signed_line_when_a_later_line_carries_no_signature_then_the_check_names_it(
    dropped: int,
) -> None:
    """Given a channel signed from its first line, when a later line's signature is removed,
    then the check fails at that line: only a channel's first lines may be unsigned."""
    lines = [replace(line, signature="good") for line in channel_of("one", "two", "three")]
    lines[dropped - 1] = replace(lines[dropped - 1], signature="")
    check = check_channel(talk.TABLE, lines, signed=lambda line: line.signature == "good")
    assert not check.ok and check.unsigned == 0
    assert check.problem == f"line {dropped} is not signed by the server's key: it was changed"


@pytest.mark.parametrize(
    ("tamper", "problem"),
    [
        (lambda ls: [ls[0], replace(ls[1], text="I never said that"), ls[2]], "changed"),
        (lambda ls: [ls[0], ls[2]], "missing"),
        (lambda ls: [ls[0], replace(ls[1], prev_hash=GENESIS), ls[2]], "does not follow"),
        (lambda ls: [ls[0], replace(ls[1], court_version=1), ls[2]], "changed"),
        (lambda ls: [ls[0], replace(ls[1], recipients=("seat:1",)), ls[2]], "changed"),
        (lambda ls: [ls[0], replace(ls[1], channel="whisper:seat:0|seat:1"), ls[2]], "another"),
    ],
)
def test_given_a_channel_when_a_line_is_changed_or_dropped_then_its_check_names_it(
    tamper, problem: str
) -> None:
    check = check_channel(talk.TABLE, tamper(channel_of("one", "two", "three")))
    assert not check.ok and problem in (check.problem or "")
    assert check.lines == 1


def test_given_lines_of_several_channels_when_checked_then_each_chain_is_checked_alone() -> None:
    whisper = talk.whisper_channel("seat:0", "seat:1")
    lines = channel_of("a", "b") + channel_of("psst", channel=whisper)
    checks = check_channels(lines)
    assert [(c.channel, c.lines, c.ok) for c in checks] == [
        ("table", 2, True),
        (whisper, 1, True),
    ]


def test_a_channel_joined_late_is_checked_from_its_first_line_given() -> None:
    """A seat handed to a new player reads a whisper channel from the hand-over on: its lines
    are checked from the first one he reads, and a change after it is still caught."""
    whisper = talk.whisper_channel("seat:0", "seat:1")
    lines = channel_of("before", "after", "later", channel=whisper)

    assert "missing" in (check_channel(whisper, lines[1:]).problem or "")
    joined = check_channels(lines[1:], joined={whisper})
    assert [(c.lines, c.ok, c.head) for c in joined] == [(2, True, lines[-1].hash)]
    changed = [lines[1], replace(lines[2], text="I never said that")]
    assert not check_channel(whisper, changed, joined=True).ok


def test_a_line_read_back_from_json_hashes_the_same() -> None:
    line = replace(channel_of("one")[0], position=12)
    assert TalkLine.from_json(line.to_json()) == line


def test_a_whisper_channel_is_the_same_whoever_speaks() -> None:
    assert talk.whisper_channel("seat:2", "seat:0") == talk.whisper_channel("seat:0", "seat:2")
    assert talk.whisper_channel("master", "seat:1") == "whisper:master|seat:1"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "talk_empty"),
        ("   ", "talk_empty"),
        ("x" * 501, "talk_too_long"),
        ("bell\x07", "talk_unprintable"),
        ("two\nlines", "talk_unprintable"),
        ("nul\x00", "talk_unprintable"),
    ],
)
def test_a_line_that_is_empty_too_long_or_unprintable_is_refused(raw: str, code: str) -> None:
    with pytest.raises(CourtError) as refused:
        talk.clean_talk(raw)
    assert refused.value.code == code and refused.value.message.endswith(".")


def test_a_line_of_one_to_500_printable_characters_is_kept_trimmed() -> None:
    assert talk.clean_talk("  A Lannister pays his debts ") == "A Lannister pays his debts"
    assert talk.clean_talk("x" * 500) == "x" * 500


def test_seats_and_the_game_master_talk_spectators_and_a_seatless_host_do_not() -> None:
    assert talk.party_of(Actor(seat=Seat(2))) == "seat:2"
    assert talk.party_of(Actor(seat=Seat(0), host=True)) == "seat:0"
    assert talk.party_of(Actor(master=True)) == "master"
    assert talk.party_of(Actor()) is None
    assert talk.party_of(Actor(host=True)) is None
    with pytest.raises(CourtError) as refused:
        talk.speaker(Actor())
    assert refused.value.code == "token_required"
    with pytest.raises(CourtError) as refused:
        talk.speaker(Actor(host=True))
    assert refused.value.code == "seat_required"


def test_a_whisper_goes_to_another_party_at_the_table_only() -> None:
    state = given(*lobby(3))
    assert talk.addressee("seat:0", 2, state) == "seat:2"
    for to, code in (
        (0, "whisper_to_self"),
        (5, "whisper_to_nobody"),
        ("master", "whisper_to_nobody"),
    ):
        with pytest.raises(CourtError) as refused:
            talk.addressee("seat:0", to, state)
        assert refused.value.code == code


def test_the_game_master_is_at_the_table_when_the_game_has_one() -> None:
    state = given(*lobby(3))
    assert talk.parties(state) == ("seat:0", "seat:1", "seat:2")
    with_master = replace(state, game_master_token_sha256="d" * 64)
    assert talk.parties(with_master)[-1] == "master"
    assert talk.addressee("seat:1", "master", with_master) == "master"
    assert talk.channels_of("master", with_master) == (
        "table",
        "whisper:master|seat:0",
        "whisper:master|seat:1",
        "whisper:master|seat:2",
    )
