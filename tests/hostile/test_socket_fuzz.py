"""A hypothesis-driven fuzzer over Socket.IO: malformed messages, unknown messages, and
well-formed messages sent out of turn, by the wrong seat, by a spectator or by the game
master, from test clients connected to games at every stage. Each must be acknowledged with
`{ok: false, code, message}` and leave every game's log (version and hash) as it was."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app import create_app
from server.live.sockets import NAMESPACE
from server.messages.catalogue import CATALOGUE
from server.messages.facts import FACTS
from server.messages.message import Sender
from server.messages.talk import TALK
from tests.hostile.payloads import (
    SCHEMAS,
    UNKNOWN_EVENTS,
    documented_messages,
    handled_messages,
    malformed,
    shaped,
)
from tests.hostile.tables import STAGES, Tables, heads, lay, vocabulary

WHO = ("none", "host", "master", "stark", "lannister", "tyrell")
FACT_MESSAGES = {m.name for m in FACTS}
HOST_SEAT_MESSAGES = {"hand_seat", "hand_host", "remove_seat", "rename_game"}
# A line of talk that has the right shape but not the right length or characters is refused
# with a code of its own (court/talk.py), as a malformed one would be.
TALK_REFUSALS = {"bad_request", "talk_empty", "talk_too_long", "talk_unprintable"}
FUZZ = settings(
    max_examples=400,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Court:
    """The app, its seeded games, one connected test client per stage and token kind, and
    the moves each of them may make now (the court view's `moves`)."""

    def __init__(self, app: Flask, tables: Tables) -> None:
        self.app, self.tables = app, tables
        self.names = vocabulary(app, tables)
        socketio = app.extensions["socketio"]
        self.clients: dict[tuple[str, str], Any] = {}
        self.moves: dict[tuple[str, str], set[str]] = {}
        http = app.test_client()
        for stage in STAGES:
            for who in WHO:
                token = tables.token(stage, who)
                if who != "none" and token is None:
                    continue
                client = socketio.test_client(
                    app, namespace=NAMESPACE, auth={"game": tables.games[stage].id, "token": token}
                )
                assert client.is_connected(NAMESPACE), (stage, who)
                self.clients[stage, who] = client
                view = http.get(
                    f"/api/games/{tables.games[stage].id}", headers=tables.headers(stage, who)
                ).get_json()
                self.moves[stage, who] = {move["message"] for move in view["moves"]}

    def send(self, stage: str, who: str, event: str, *args: Any) -> Any:
        client = self.clients[stage, who]
        ack = client.emit(event, *args, namespace=NAMESPACE, callback=True)
        client.get_received(NAMESPACE)  # nothing piles up between examples
        return ack


@pytest.fixture(scope="module")
def court(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Court]:
    # The flood test holds the limits to account; here every message must reach its handler.
    folder = tmp_path_factory.mktemp("sockets")
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{folder}/t.db", "DEADLINES": False, "RATE_LIMITS": False}
    )
    court = Court(app, lay(app))
    yield court
    for client in court.clients.values():
        client.disconnect(namespace=NAMESPACE)
    app.extensions["court_store"].close()


def must_refuse(court: Court, stage: str, who: str, event: str) -> bool:
    """Whether the rules refuse `event` from `who` now, whatever its payload: facts from
    anyone but the host and the game master (or before the start), a seat from a spectator
    or the game master, seats and the host role handed by anyone but the host,
    `close_overdue` where no step has a deadline, talk from a spectator, and every other
    move the court view does not list for this viewer."""
    if event == "sync":
        return False
    if event in TALK:  # the seats and the game master talk; a spectator does not
        return who == "none"
    if event == "close_overdue":
        return True
    if event in FACT_MESSAGES:
        return who not in ("host", "stark", "master") or stage == "lobby"
    if event == "join":
        return not (who == "none" and stage == "lobby")
    # Seats, the host role and the game's name are no moves of the game, so the court view
    # does not list them: the host's (with or without his seat) may pass, anyone else's not;
    # the vote is a seat's other than the host's.
    if event in HOST_SEAT_MESSAGES:
        return who not in ("host", "stark")
    if event == "vote_host":
        return who not in ("lannister", "tyrell")
    # The host's correction names any record and is never listed: his may pass. A vote to
    # replace a player hangs on his connections: any seat's may pass.
    if event in ("propose_correction", "withdraw_correction"):
        return who not in ("host", "stark")
    if event == "vote_replace":
        return who not in ("stark", "lannister", "tyrell")
    # A first device key needs the holder's token alone, in an open game: never listed either.
    if event == "add_device_key":
        return who == "none"
    return event not in court.moves[stage, who]


def senders(court: Court) -> st.SearchStrategy[tuple[str, str]]:
    return st.sampled_from(sorted(court.clients))


def assert_refused(ack: Any, code: str | None = None) -> None:
    assert isinstance(ack, dict) and ack.get("ok") is False, ack
    event(f"refused: {ack.get('code')}")
    assert isinstance(ack.get("code"), str) and ack["code"], ack
    assert isinstance(ack.get("message"), str) and ack["message"], ack
    assert ack["code"] not in ("internal_error", "busy", "rate_limited"), ack
    if code is not None:
        assert ack["code"] == code, ack


def test_the_fuzzer_knows_every_message_the_protocol_documents() -> None:
    assert documented_messages() == handled_messages() == set(SCHEMAS)


@FUZZ
@given(data=st.data())
def test_a_malformed_message_is_refused_as_bad_request_and_changes_nothing(
    court: Court, data: st.DataObject
) -> None:
    stage, who = data.draw(senders(court), label="sender")
    event = data.draw(st.sampled_from(sorted(SCHEMAS)), label="event")
    args = data.draw(malformed(event, court.names), label="args")
    before = heads(court.app, court.tables)

    ack = court.send(stage, who, event, *args)

    # A spectator's seat or host command, or talk, is refused before its payload is read.
    message = CATALOGUE.get(event)
    unread = who == "none" and message is not None and message.sender is not Sender.ANYONE
    if event in TALK:
        assert_refused(ack)
        told = {"token_required"} if who == "none" and len(args) <= 1 else TALK_REFUSALS
        assert ack["code"] in told, ack
    else:
        assert_refused(ack, "token_required" if unread and len(args) <= 1 else "bad_request")
    assert heads(court.app, court.tables) == before


@FUZZ
@given(data=st.data())
def test_an_unknown_message_is_refused_and_changes_nothing(
    court: Court, data: st.DataObject
) -> None:
    stage, who = data.draw(senders(court), label="sender")
    event = data.draw(UNKNOWN_EVENTS, label="event")
    args = data.draw(st.lists(st.none() | st.integers() | st.text(max_size=10), max_size=2))
    before = heads(court.app, court.tables)

    ack = court.send(stage, who, event, *args)

    assert_refused(ack, "unknown_message")
    assert heads(court.app, court.tables) == before


@FUZZ
@given(data=st.data())
def test_a_well_formed_message_out_of_turn_or_role_is_refused_and_changes_nothing(
    court: Court, data: st.DataObject
) -> None:
    stage, who, event = data.draw(
        st.tuples(senders(court), st.sampled_from(sorted(SCHEMAS)))
        .map(lambda pair: (*pair[0], pair[1]))
        .filter(lambda t: must_refuse(court, *t)),
        label="sender and event",
    )
    payload = data.draw(shaped(SCHEMAS[event], court.names), label="payload")
    before = heads(court.app, court.tables)

    ack = court.send(stage, who, event, payload)

    assert_refused(ack)
    assert ack["code"] not in ("bad_request", "unknown_message"), ack
    assert heads(court.app, court.tables) == before


def test_every_stage_and_kind_of_sender_is_fuzzed(court: Court) -> None:
    """The lobby has no Tyrell (he left); every other pair has a connection."""
    assert len(court.clients) == len(STAGES) * len(WHO) - 1
    assert court.moves["election", "lannister"] == {"stand", "pass", "vote_end"}
    assert court.moves["decree", "stark"] >= {"pass"}
