"""Composition root: `create_app(overrides)` wires settings, store, service and adapters.

`python app.py` runs the server (Flask-SocketIO, threading mode) on HOST:PORT. With REDIS_URL
set, several such processes share one PostgreSQL database (docs/deployment.md). Only the
server process watches deadlines (`start_deadlines`); `flask --app app court ...` loads the
app without migrating the database or starting anything in the background, so its read
commands never write.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from typing import Any

from flask import Flask, jsonify
from flask.json.provider import DefaultJSONProvider
from flask_socketio import SocketIO
from sqlalchemy import text
from werkzeug.serving import WSGIRequestHandler

from config.settings import Settings
from server.http import games, history, lobby, pages, play  # noqa: F401 - they register routes
from server.http.api import install_error_handlers
from server.live.deadlines import DeadlineWatcher
from server.live.presence import Presence, PresenceNamespace
from server.live.presence_redis import RedisPresence
from server.live.pushes import RoomPusher
from server.live.relay import Relay, redis_client
from server.live.sockets import RateLimit
from server.live.wire import JsonPacket
from server.service import CourtService
from server.store.sql import SqlEventStore
from server.tools.cli import court_cli


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    settings = Settings().with_overrides(overrides)
    app = Flask(__name__)
    app.config.from_mapping({name: getattr(settings, name) for name in settings.__slots__})
    assert isinstance(app.json, DefaultJSONProvider)  # Flask's own, which sorts keys by default
    app.json.sort_keys = False
    app.config["MAX_CONTENT_LENGTH"] = 256 * 1024  # a court request is a few hundred bytes

    # The `flask` command sets this for every command it runs: a shell command, not a server.
    shell = os.environ.get("FLASK_RUN_FROM_CLI") == "true"
    store = app.extensions["court_store"] = _open_store(settings, shell)
    # Names this process to the others (presence, announcements) and in /healthz.
    process_id = app.extensions["process_id"] = uuid.uuid4().hex[:12]
    _wire_service(app, settings, store, process_id, shell)

    app.register_blueprint(games.bp)
    app.register_blueprint(pages.bp)
    app.cli.add_command(court_cli)
    install_error_handlers(app)
    _add_health_and_spec(app, store, process_id)
    return app


def _open_store(settings: Settings, shell: bool) -> SqlEventStore:
    """The event store; a server also creates the SQLite file's folder and migrates."""
    if settings.DATABASE_URL.startswith("sqlite:///") and not shell:
        Path(settings.DATABASE_URL.removeprefix("sqlite:///")).parent.mkdir(
            parents=True, exist_ok=True
        )
    store = SqlEventStore(settings.DATABASE_URL, synchronous=settings.SQLITE_SYNCHRONOUS)
    if not shell:
        store.create_schema()
    return store


def _wire_service(
    app: Flask, settings: Settings, store: SqlEventStore, process_id: str, shell: bool
) -> None:
    """The service and what it publishes to: Socket.IO pushes, the deadline watcher and,
    with REDIS_URL, the relay to the other processes; then the presence namespace."""
    socketio = SocketIO(
        app,
        async_mode="threading",
        message_queue=settings.REDIS_URL or None,
        serializer=JsonPacket,  # type: ignore[call-arg]  # JSON alone (the stubs lack it)
        # A client's messages are handled one after another on its connection's own task
        # instead of a new thread started for each one (python-socketio's default).
        async_handlers=False,
    )
    service = app.extensions["court"] = CourtService(
        store,
        retries=settings.SERVICE_RETRIES,
        cache_size=settings.STATE_CACHE_SIZE,
        snapshot_every=settings.SNAPSHOT_EVERY,
    )
    pusher = app.extensions["pushes"] = RoomPusher(socketio, lambda: app.extensions["court"])
    watcher = app.extensions["deadlines"] = DeadlineWatcher(lambda: app.extensions["court"])
    # Several processes: announcements of appends and presence go through Redis.
    client = redis_client(settings.REDIS_URL) if settings.REDIS_URL else None
    relay = Relay(client, process_id, pusher, watcher) if client else None
    shared = RedisPresence(client, process_id, settings.PRESENCE_TTL) if client else None
    if relay is not None:
        service.publishers.append(relay)  # first: the others start reading while we render
    service.publishers += [pusher, watcher]
    presence = app.extensions["presence"] = shared or Presence()
    namespace = PresenceNamespace(
        lambda: app.extensions["court"], RateLimit(), pusher, presence=presence
    )
    socketio.on_namespace(namespace)
    if relay is not None and shared is not None:
        app.extensions["relay"] = relay
        if not shell:
            relay.start()
            shared.start(dropped=namespace.push_presence)


def _add_health_and_spec(app: Flask, store: SqlEventStore, process_id: str) -> None:
    """/healthz (the database answers; which process this is) and /openapi.json."""

    @app.get("/healthz")
    def healthz() -> Any:
        with store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        return jsonify(
            {"status": "ok", "database": store.engine.dialect.name, "process": process_id}
        )

    @app.get("/openapi.json")
    def openapi() -> Any:
        return jsonify(games.api.spec())


def start_deadlines(app: Flask) -> None:
    """The server process's part of R-4.3: close every step already overdue (one game that
    fails is logged and skipped), then watch the deadlines to come."""
    watcher: DeadlineWatcher = app.extensions["deadlines"]
    watcher.close_overdue_now()
    watcher.start()


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    # A push followed by an ack otherwise waits ~40 ms for Nagle's algorithm.
    WSGIRequestHandler.disable_nagle_algorithm = True
    app = create_app()
    if app.config["DEADLINES"]:
        start_deadlines(app)
    host, port = app.config["HOST"], app.config["PORT"]
    print(f"Small Council is listening on http://{host}:{port}", flush=True)
    app.extensions["socketio"].run(app, host=host, port=port, allow_unsafe_werkzeug=True)


if __name__ == "__main__":
    main()
