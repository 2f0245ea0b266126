"""How `python app.py` serves: gunicorn with one gevent worker (the default), or Werkzeug's
development server behind an explicit flag (`SERVER=dev`, or `python app.py --dev`).

app.py hands over to `main` before it imports anything else, so that the gunicorn master
never imports Flask, psycopg or redis: the worker monkey-patches the standard library
(gevent) first and only then imports the composition root (`load_app`). psycopg chooses its wait
function when it is imported, and uses gevent's only when `select` is already patched; locks made
at import time would otherwise be real locks that block the one thread every greenlet
runs on.

One worker per process: a Socket.IO session lives in one process, so several processes
sit behind a proxy with sticky sessions and share Redis (docs/deployment.md).
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from gunicorn.app.base import BaseApplication
from gunicorn.workers.ggevent import GeventWorker

from config.settings import SettingError, Settings
from server.tools.exposure import warn_if_exposed

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
# Connections one worker holds at once (greenlets: a WebSocket costs a few kB, not a
# thread). gunicorn's default of 1,000 is less than 200 rooms of six seats.
WORKER_CONNECTIONS = 10_000
# Seconds a connection may take to send a request's head, and to send the next one on a
# kept-alive connection: a half-sent request is dropped after this.
HEADER_SECONDS = 5
# Seconds a stopping worker gives its requests to finish (WebSocket clients are told to go
# at once, see CourtWorker); within devtools/servers.py's bounded wait after SIGTERM.
GRACEFUL_SECONDS = 5
# Seconds the master lets a worker go without a heartbeat before it restarts it.
WORKER_SILENT_SECONDS = 30
# The cyclic garbage collector's thresholds in a worker. A busy worker holds millions of
# objects that live long (each game's court, the court views its pushes change, the
# connections), and the court makes few reference cycles: with Python's defaults a full
# collection walks them all every few seconds, a pause of a large share of a second that
# stalls every connection. Fewer, rarer collections cost a little memory instead. Each court
# and view a command keeps is walked once by the youngest generation however often it runs;
# what a larger first threshold saves is walking them again in the middle one (at 200 rooms:
# 1.1 s of 29 s of CPU in the collector at 10,000 and 20, 0.6 s at 50,000 and 50, whose
# collections pause for about 16 ms each).
GC_THRESHOLDS = (50_000, 50, 100)


class CourtWorker(GeventWorker):
    """gunicorn's gevent worker that closes every Socket.IO connection when told to stop,
    so that a graceful stop does not wait out WebSockets that stay open for hours; the
    clients reconnect elsewhere or when the server is back."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        import gevent  # the worker's own, after its monkey-patching

        gevent.spawn(_close_connections, self.wsgi)


def _close_connections(app: Any) -> None:
    app.extensions["socketio"].server.eio.disconnect()


class CourtApplication(BaseApplication):
    """gunicorn configured in code, from the same settings as the app (HOST, PORT)."""

    def __init__(
        self, settings: Settings, load: Callable[[], Any], label: str = "Small Council"
    ) -> None:
        self.settings = settings
        self._load = load
        self.label = label  # what the "is listening" line names
        super().__init__()

    def load_config(self) -> None:
        for name, value in gunicorn_options(self.settings, self.label).items():
            self.cfg.set(name, value)

    def load(self) -> Any:
        return self._load()


def gunicorn_options(settings: Settings, label: str = "Small Council") -> dict[str, Any]:
    host, port = settings.HOST, settings.PORT
    return {
        "bind": [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
        "workers": 1,
        "worker_class": CourtWorker,
        "worker_connections": WORKER_CONNECTIONS,
        "keepalive": HEADER_SECONDS,
        "graceful_timeout": GRACEFUL_SECONDS,
        "timeout": WORKER_SILENT_SECONDS,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "small-council",
        # gunicorn's control socket sits at one path per user: servers would share it.
        "control_socket_disable": True,
        # Once the worker has loaded the app (a worker that cannot boot stops the master).
        "post_worker_init": lambda _worker: print(
            f"{label} is listening on http://{host}:{port}", flush=True
        ),
    }


def load_app() -> Any:
    """The app as the worker serves it (after gevent's monkey-patching): Socket.IO in
    gevent mode, the deadline watcher running."""
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    from gunicorn.arbiter import Arbiter

    from server.composition import create_app, start_deadlines, start_notices
    from server.store.lock import WriterLockError

    try:
        app = create_app({"ASYNC_MODE": "gevent"})
    except WriterLockError as exc:  # the master stops: a worker that cannot boot
        print(f"Small Council cannot start: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(Arbiter.WORKER_BOOT_ERROR) from None
    if app.config["DEADLINES"]:
        start_deadlines(app)
    if app.config["NOTICES"]:
        start_notices(app)
    # What the worker loaded to serve stays: the collector need not walk it again.
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return app


def serve_dev(settings: Settings) -> None:
    """Werkzeug's development server, Flask-SocketIO in threading mode: for debugging."""
    from werkzeug.serving import WSGIRequestHandler

    from server.composition import create_app, start_deadlines, start_notices
    from server.store.lock import WriterLockError

    # A push followed by an ack otherwise waits ~40 ms for Nagle's algorithm.
    WSGIRequestHandler.disable_nagle_algorithm = True
    try:
        app = create_app({"ASYNC_MODE": "threading"})
    except WriterLockError as exc:
        sys.exit(f"Small Council cannot start: {exc}")
    if app.config["DEADLINES"]:
        start_deadlines(app)
    if app.config["NOTICES"]:
        start_notices(app)
    host, port = settings.HOST, settings.PORT
    print(f"Small Council (development server) is listening on http://{host}:{port}", flush=True)
    app.extensions["socketio"].run(app, host=host, port=port, allow_unsafe_werkzeug=True)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="app.py", description="Serve Small Council.")
    parser.add_argument(
        "--dev", action="store_true", help="Werkzeug's development server (as SERVER=dev)"
    )
    args = parser.parse_args(argv)
    from config.rulesdata import RulesDataError
    from server.keys import load_keys
    from server.service.profiles import Profiles

    # Before the keys: a key file made now is logged, as the deployment guide says.
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    try:
        settings = Settings()
        # A rules file or key that cannot be used stops the server with a line naming it,
        # before any worker starts; the key files are made then on a first start.
        Profiles(settings.RULES_PROFILE)
        load_keys(settings)
    except (SettingError, RulesDataError) as exc:
        print(f"Small Council cannot start: {exc}", file=sys.stderr, flush=True)
        return 2
    warn_if_exposed(settings)
    if args.dev or settings.SERVER == "dev":
        serve_dev(settings)
    else:
        CourtApplication(settings, load_app).run()
    return 0
