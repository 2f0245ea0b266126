"""The floor of bench/live.py and bench/load.py: the least a Flask-SocketIO server can do per
command, served the way app.py serves the court.

Same server as app.py: gunicorn with one gevent worker configured by server/tools/serve.py (or, with
`SERVER=dev`, Werkzeug in threading mode with Nagle off), one namespace "/court". A client
connecting with auth {"game": room} joins "game:<room>"; a "bump" only increments the room's
counter, pushes "events" {version} to the room under the room's lock (as the court publishes
under the game's lock) and acks {ok: True, version}.
Run: `HOST=127.0.0.1 PORT=5001 .venv/bin/python bench/floor_app.py`.

Like app.py, this module imports Flask only inside `build`, which the gunicorn worker calls
after gevent has patched the standard library.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root

NAMESPACE = "/court"


def build(async_mode: str) -> Any:
    """The floor's Flask app, Flask-SocketIO in `async_mode`."""
    import threading

    from flask import Flask, request
    from flask_socketio import SocketIO, join_room

    app = Flask(__name__)
    socketio = SocketIO(app, async_mode=async_mode)
    versions: dict[str, int] = {}
    locks: dict[str, threading.Lock] = {}
    members: dict[str, str] = {}  # sid -> room
    guard = threading.Lock()

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @socketio.on("connect", namespace=NAMESPACE)
    def on_connect(auth: Any = None) -> None:
        room = str(auth["game"]) if isinstance(auth, dict) and "game" in auth else ""
        if not room:
            raise ConnectionRefusedError({"ok": False, "code": "bad_request"})
        join_room(f"game:{room}")
        with guard:
            members[request.sid] = room  # type: ignore[attr-defined]
            locks.setdefault(room, threading.Lock())
            versions.setdefault(room, 0)

    @socketio.on("disconnect", namespace=NAMESPACE)
    def on_disconnect(reason: Any = None) -> None:
        with guard:
            members.pop(request.sid, None)  # type: ignore[attr-defined]

    @socketio.on("bump", namespace=NAMESPACE)
    def on_bump(payload: Any = None) -> dict[str, Any]:
        room = members[request.sid]  # type: ignore[attr-defined]
        with locks[room]:
            versions[room] += 1
            version = versions[room]
            socketio.emit("events", {"version": version}, to=f"game:{room}", namespace=NAMESPACE)
        return {"ok": True, "version": version}

    return app


def main() -> None:
    from config.settings import Settings

    settings = Settings()
    host, port = settings.HOST, settings.PORT
    if os.environ.get("SERVER", "gunicorn") == "dev":
        from werkzeug.serving import WSGIRequestHandler

        WSGIRequestHandler.disable_nagle_algorithm = True
        app = build("threading")
        print(f"floor is listening on http://{host}:{port}", flush=True)
        app.extensions["socketio"].run(app, host=host, port=port, allow_unsafe_werkzeug=True)
        return
    from server.tools.serve import CourtApplication

    CourtApplication(settings, lambda: build("gevent"), "floor").run()


if __name__ == "__main__":
    main()
