"""Composition root: `create_app(overrides)` wires settings, store, service and adapters.

`python app.py` runs the server (Flask-SocketIO, threading mode) on HOST:PORT.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask, jsonify
from flask_socketio import SocketIO
from sqlalchemy import text
from werkzeug.serving import WSGIRequestHandler

from config.settings import Settings
from court import pages, web, web_history, web_lobby, web_play  # noqa: F401 - they register routes
from court.api import install_error_handlers
from court.cli import court_cli
from court.deadlines import DeadlineWatcher
from court.presence import PresenceNamespace
from court.service import CourtService
from court.sockets import RateLimit, SocketPublisher
from court.store import SqlEventStore


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    settings = Settings().with_overrides(overrides)
    app = Flask(__name__)
    app.config.from_mapping({name: getattr(settings, name) for name in settings.__slots__})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.config["MAX_CONTENT_LENGTH"] = 256 * 1024  # a court request is a few hundred bytes

    if settings.DATABASE_URL.startswith("sqlite:///"):
        Path(settings.DATABASE_URL.removeprefix("sqlite:///")).parent.mkdir(
            parents=True, exist_ok=True
        )
    store = SqlEventStore(settings.DATABASE_URL, synchronous=settings.SQLITE_SYNCHRONOUS)
    store.create_schema()
    socketio = SocketIO(app, async_mode="threading")
    app.extensions["court"] = CourtService(
        store,
        retries=settings.SERVICE_RETRIES,
        cache_size=settings.STATE_CACHE_SIZE,
        publisher=SocketPublisher(socketio),
    )
    socketio.on_namespace(PresenceNamespace(lambda: app.extensions["court"], RateLimit()))
    watcher = DeadlineWatcher(lambda: app.extensions["court"])
    app.extensions["court"].publishers.append(watcher)
    app.extensions["deadlines"] = watcher
    if settings.DEADLINES:
        watcher.close_overdue_now()
        watcher.start()
    app.extensions["court_store"] = store

    app.register_blueprint(web.bp)
    app.register_blueprint(pages.bp)
    app.cli.add_command(court_cli)
    install_error_handlers(app)

    @app.get("/healthz")
    def healthz() -> Any:
        with store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        return jsonify({"status": "ok", "database": store.engine.dialect.name})

    @app.get("/openapi.json")
    def openapi() -> Any:
        return jsonify(web.api.spec())

    return app


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    # A push followed by an ack otherwise waits ~40 ms for Nagle's algorithm.
    WSGIRequestHandler.disable_nagle_algorithm = True
    app = create_app()
    host, port = app.config["HOST"], app.config["PORT"]
    print(f"Small Council is listening on http://{host}:{port}", flush=True)
    app.extensions["socketio"].run(app, host=host, port=port, allow_unsafe_werkzeug=True)


if __name__ == "__main__":
    main()
