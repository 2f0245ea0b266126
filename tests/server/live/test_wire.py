"""The court's Socket.IO packets are JSON alone (server/live/wire.py): the same values on the
wire as python-socketio's own packets, written by orjson without walking each payload for
binary parts; and each connection's messages are handled in turn."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from socketio import packet
from socketio.packet import Packet

from server.live.pushes import NAMESPACE
from server.live.wire import JsonPacket

PUSH = [
    "events",
    {
        "version": 12,
        "records": [
            {"version": 12, "type": "BallotPlaced", "seat": 1, "private": None, "ok": True},
            {"data": {"order": [0, 1, 2], "text": "Élection — “North”", "ratio": 0.5}},
        ],
    },
]


def test_the_court_server_writes_its_packets_with_the_json_packet(app: Flask) -> None:
    assert app.extensions["socketio"].server.packet_class is JsonPacket


def test_a_connections_messages_are_handled_in_turn_without_a_thread_each(app: Flask) -> None:
    """python-socketio starts a thread for every message unless told not to; the court
    handles each connection's messages one after another on the connection's own task."""
    assert app.extensions["socketio"].server.async_handlers is False


@pytest.mark.parametrize("kind", [packet.EVENT, packet.ACK])
def test_a_json_payload_goes_out_as_the_same_values_as_python_socketios_packet(kind: int) -> None:
    """Given a push (or an ack) of JSON values, when it is encoded, then the wire holds the
    packet python-socketio's own writes: the same head, and JSON any reader reads as the
    same values (orjson writes é as UTF-8 where the standard library escapes it)."""
    ours = JsonPacket(kind, data=PUSH, namespace=NAMESPACE, id=7 if kind == packet.ACK else None)
    theirs = Packet(kind, data=PUSH, namespace=NAMESPACE, id=7 if kind == packet.ACK else None)

    head = theirs.encode().split("[", 1)[0]
    assert ours.encode().startswith(head + "[")
    assert json.loads(ours.encode().removeprefix(head)) == PUSH
    assert Packet(encoded_packet=ours.encode()).data == PUSH
    assert JsonPacket(encoded_packet=ours.encode()).data == PUSH


def test_an_integer_orjson_cannot_write_goes_out_written_by_the_standard_library() -> None:
    """An echo of a client's number beyond 64 bits is still written, never an error."""
    data = ["ack", {"given": 10**30, "name": "Élise"}]
    sent = JsonPacket(packet.ACK, data=data, namespace=NAMESPACE, id=3).encode()

    assert JsonPacket(encoded_packet=sent).data == data


def test_a_payload_with_bytes_fails_to_encode_instead_of_going_out_as_binary() -> None:
    with pytest.raises(TypeError):
        JsonPacket(packet.EVENT, data=["events", {"raw": b"\x00"}], namespace=NAMESPACE).encode()


def test_a_binary_packet_from_a_client_is_still_read_as_one() -> None:
    sent = Packet(packet.EVENT, data=["stand", {"blob": b"\x01\x02"}], namespace=NAMESPACE)
    text, attachment = sent.encode()

    read = JsonPacket(encoded_packet=text)
    assert read.packet_type == packet.BINARY_EVENT and read.attachment_count == 1
    assert read.add_attachment(attachment)
    assert read.data == ["stand", {"blob": b"\x01\x02"}]
