"""The floor of bench/live.py: the least a Flask-SocketIO server can do per command.

Same stack as app.py (Flask-SocketIO in threading mode on Werkzeug, Nagle off), one
namespace "/court". A client connecting with auth {"game": room} joins "game:<room>";
a "bump" only increments the room's counter, pushes "events" {version} to the room
under the room's lock (as the court publishes under the game's lock) and acks
{ok: True, version}. Run: `HOST=127.0.0.1 PORT=5001 .venv/bin/python bench/floor_app.py`.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from flask import Flask, request
from flask_socketio import SocketIO, join_room
from werkzeug.serving import WSGIRequestHandler

NAMESPACE = "/court"


class Counter:
    """One room's version, bumped one at a time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.version = 0


app = Flask(__name__)
socketio = SocketIO(app, async_mode="threading")
_rooms: dict[str, Counter] = {}
_members: dict[str, str] = {}  # sid -> room
_guard = threading.Lock()


def _counter(room: str) -> Counter:
    with _guard:
        return _rooms.setdefault(room, Counter())


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@socketio.on("connect", namespace=NAMESPACE)
def on_connect(auth: Any = None) -> None:
    room = str(auth["game"]) if isinstance(auth, dict) and "game" in auth else ""
    if not room:
        raise ConnectionRefusedError({"ok": False, "code": "bad_request"})
    join_room(f"game:{room}")
    with _guard:
        _members[request.sid] = room  # type: ignore[attr-defined]


@socketio.on("disconnect", namespace=NAMESPACE)
def on_disconnect(reason: Any = None) -> None:
    with _guard:
        _members.pop(request.sid, None)  # type: ignore[attr-defined]


@socketio.on("bump", namespace=NAMESPACE)
def on_bump(payload: Any = None) -> dict[str, Any]:
    with _guard:
        room = _members[request.sid]  # type: ignore[attr-defined]
    counter = _counter(room)
    with counter.lock:
        counter.version += 1
        version = counter.version
        socketio.emit("events", {"version": version}, to=f"game:{room}", namespace=NAMESPACE)
    return {"ok": True, "version": version}


def main() -> None:
    WSGIRequestHandler.disable_nagle_algorithm = True
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "5001"))
    print(f"floor is listening on http://{host}:{port}", flush=True)
    socketio.run(app, host=host, port=port, allow_unsafe_werkzeug=True)


if __name__ == "__main__":
    main()
