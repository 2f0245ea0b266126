"""How Socket.IO packets are written: JSON alone, encoded by orjson.

python-socketio builds every outgoing packet by first walking the whole payload, each list
and dict down to the last value, looking for bytes to send as binary attachments: a Python
call per value, more than the JSON encoding of the packet itself. The court sends JSON
values only (dicts, lists, strings, numbers, booleans, null), so its packets skip the walk;
a payload holding bytes would fail to encode rather than go out in another form. A binary
packet from a client is still read as one (decoding does not depend on this class).

A command pushes one packet to each audience of its game; orjson writes them at a fraction
of the standard library's cost. Incoming packets are still read by engineio's own reader
(which refuses integers of more than 100 digits).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from engineio import json as engineio_json  # type: ignore[import-untyped]  # no stubs
from socketio.packet import Packet


class PacketJson:
    """The `json` of the court's packets: `dumps` by orjson, the standard library for what
    orjson refuses (an integer beyond 64 bits); `loads` as python-socketio reads."""

    @staticmethod
    def dumps(value: Any, **_options: Any) -> str:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            return json.dumps(value, separators=(",", ":"))

    loads = staticmethod(engineio_json.loads)


class JsonPacket(Packet):
    """The packet class of the court's Socket.IO server (`SocketIO(serializer=JsonPacket)`)."""

    uses_binary_events = False
    json = PacketJson
