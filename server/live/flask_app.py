"""The court's Flask class: Flask, without URL matching for Socket.IO's events.

Flask-SocketIO runs each event in a request context built from the connection's handshake
request, and Flask matches that request's URL (`/socket.io/`, which no route serves) against
every route of the app each time, only to keep a 404 nobody raises: a profile under load
put that matching at a seventh of the server's CPU. Requests under SOCKETIO_PATH get no URL
adapter, so the matching is skipped; every other request is routed as before. Event
handlers do not build URLs (`url_for`) or read the matched rule.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

SOCKETIO_PATH = "/socket.io/"  # Flask-SocketIO's default path, which app.py keeps


class CourtFlask(Flask):
    def create_url_adapter(self, request: Any) -> Any:
        if request is not None and request.environ.get("PATH_INFO", "").startswith(SOCKETIO_PATH):
            return None
        return super().create_url_adapter(request)
