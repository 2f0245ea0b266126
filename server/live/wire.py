"""How Socket.IO packets are written: JSON alone.

python-socketio builds every outgoing packet by first walking the whole payload, each list
and dict down to the last value, looking for bytes to send as binary attachments: a Python
call per value, more than the JSON encoding of the packet itself. The court sends JSON
values only (dicts, lists, strings, numbers, booleans, null), so its packets skip the walk;
a payload holding bytes would fail to encode rather than go out in another form. A binary
packet from a client is still read as one (decoding does not depend on this class).
"""

from __future__ import annotations

from socketio.packet import Packet


class JsonPacket(Packet):
    """The packet class of the court's Socket.IO server (`SocketIO(serializer=JsonPacket)`)."""

    uses_binary_events = False
