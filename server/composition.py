"""The composition root: `create_app(overrides)` wires settings, store, service and adapters.

app.py offers it to `flask --app app` and to the server process (server/tools/serve.py); only
the server process watches deadlines (`start_deadlines`) and sends notices (`start_notices`).
`flask --app app court ...` loads the app without migrating the database or starting anything
in the background, so its read commands never write.
"""

from __future__ import annotations

import logging
import os
import uuid
from dataclasses import fields
from pathlib import Path
from typing import Any

from flask import Flask, jsonify
from flask.json.provider import DefaultJSONProvider
from flask_socketio import SocketIO
from redis import Redis
from sqlalchemy import text

from config.settings import Settings
from server.clients.addresses import trust_proxies
from server.clients.limits import Limits, LimitSettings
from server.http import (
    games,
    history,
    lobby,
    mail,
    mykey,
    pages,
    play,
    realm_map,
    table_links,
    talk,
    webhook,
    witness,
)
from server.http.api import Routes, error_response, install_error_handlers, openapi_document
from server.http.security import install_security_headers
from server.keys import load_keys
from server.live.bots import BotPlayer
from server.live.deadlines import DeadlineWatcher
from server.live.flask_app import CourtFlask
from server.live.presence import Presence, PresenceBook, PresenceNamespace
from server.live.presence_redis import RedisPresence
from server.live.pushes import RoomPusher
from server.live.relay import Relay, redis_client, without_password
from server.live.talk import TalkPusher
from server.live.wire import JsonPacket
from server.messages.rebuilt import REBUILD
from server.notify.mail import SmtpSettings
from server.notify.outbox import Notifier
from server.notify.reminders import MailSettings, Reminders
from server.notify.sender import OutboxSender, SendSettings
from server.notify.sends import SendGate
from server.notify.urls import UrlPolicy
from server.outages import Outage
from server.private import private_folder, warn_if_shared
from server.service.court_service import CourtService
from server.service.profiles import Profiles
from server.service.seat_keys import SeatKeys
from server.service.talk import TalkService
from server.store.failures import refusal
from server.store.pool import Pool
from server.store.sql import SqlEventStore
from server.store.sqlite import database_file
from server.tools.cli import court_cli

ROOT = Path(__file__).resolve().parent.parent


def create_app(
    overrides: dict[str, Any] | None = None, *, store: SqlEventStore | None = None
) -> Flask:
    """The app; `store`, the event store it serves (by default, the one DATABASE_URL names)."""
    settings = Settings().with_overrides(overrides)
    # Named and rooted as app.py, beside templates/ and static/: the app's name and folders
    # stay what `flask --app app` and the logs have always shown.
    app = CourtFlask("app", root_path=str(ROOT))
    # Every setting but the keys, which stay in the settings object alone (server/keys/).
    app.config.from_mapping({f.name: getattr(settings, f.name) for f in fields(settings) if f.repr})
    assert isinstance(app.json, DefaultJSONProvider)  # Flask's own, which sorts keys by default
    app.json.sort_keys = False
    app.config["MAX_CONTENT_LENGTH"] = settings.MAX_REQUEST_BYTES
    app.extensions["limits"] = _limits(settings)
    app.extensions["settings"] = settings
    # The rules data, checked now: a file that cannot be used stops the server here.
    app.extensions["profiles"] = Profiles(settings.RULES_PROFILE)

    # The `flask` command sets this for every command it runs: a shell command, not a server.
    shell = os.environ.get("FLASK_RUN_FROM_CLI") == "true"
    store = app.extensions["court_store"] = store or _open_store(settings, shell)
    # Names this process to the others (presence, announcements) and in /healthz.
    process_id = app.extensions["process_id"] = uuid.uuid4().hex[:12]
    _wire_service(app, settings, store, process_id, shell)

    api = api_routes()
    for routes in api:
        app.register_blueprint(routes.blueprint)
    app.register_blueprint(pages.bp)
    app.cli.add_command(court_cli)
    install_error_handlers(app, store.outage)
    install_security_headers(app, settings.PUBLIC_URL)
    _add_health_and_spec(app, store, process_id, api)
    trust_proxies(app, settings.TRUSTED_PROXIES)
    return app


def api_routes() -> tuple[Routes, ...]:
    """Every part of the HTTP API, each with its blueprint, in the order /openapi.json
    lists them."""
    return (
        games.routes,
        history.routes,
        lobby.routes,
        play.command_routes(),
        realm_map.routes,
        table_links.routes,
        talk.routes,
        webhook.routes,
        mail.routes,
        mykey.routes,
        witness.routes,
    )


def _limits(settings: Settings) -> Limits:
    """The per-address limits of settings.py (server/clients/limits.py)."""
    rates = LimitSettings(
        games=settings.LIMIT_GAMES,
        seats=settings.LIMIT_SEATS,
        connects=settings.LIMIT_CONNECTS,
        messages=settings.LIMIT_MESSAGES,
        connection_messages=settings.LIMIT_CONNECTION_MESSAGES,
        connections=settings.LIMIT_CONNECTIONS,
        ipv6_prefix=settings.LIMIT_IPV6_PREFIX,
    )
    return Limits(rates, enabled=settings.RATE_LIMITS)


def _open_store(settings: Settings, shell: bool) -> SqlEventStore:
    """The event store; a server also creates the SQLite file's folder (0700, its file 0600:
    server/private.py), holds the file against a second server process
    (server/store/lock.py) and migrates."""
    database = database_file(settings.DATABASE_URL)
    if database is not None and not shell:
        private_folder(database.parent)
        warn_if_shared(database)
    store = SqlEventStore(
        settings.DATABASE_URL,
        synchronous=settings.SQLITE_SYNCHRONOUS,
        single_writer=not shell,
        pool=Pool(settings.DATABASE_POOL_SIZE, settings.DATABASE_POOL_TIMEOUT),
    )
    if not shell:
        store.create_schema()
    return store


def _wire_service(
    app: Flask, settings: Settings, store: SqlEventStore, process_id: str, shell: bool
) -> None:
    """The service first, then what it is handed to: Socket.IO pushes, the deadline watcher,
    the bot, the outboxes and, with REDIS_URL, the relay to the other processes; then the
    namespace the pages connect to. Each is given the service it calls, built once here."""
    socketio = _socketio(app, settings)
    client, outage = _redis(app, settings)
    # Who is connected: the service asks it since when a game's host has had no connection.
    shared = None
    if client is not None:
        shared = RedisPresence(client, process_id, settings.PRESENCE_TTL, outage=outage)
    presence = app.extensions["presence"] = shared or Presence(settle=settings.PRESENCE_TTL)
    service = app.extensions["court"] = _service(settings, store, presence)
    talker = app.extensions["talk"] = TalkService(store.talk, service)
    pusher = app.extensions["pushes"] = RoomPusher(socketio, service)
    watcher = app.extensions["deadlines"] = DeadlineWatcher(service)
    talk_pusher = app.extensions["talk_pushes"] = TalkPusher(socketio, talker)
    relay = None
    if client is not None:
        relay = Relay(client, process_id, pusher, watcher, talk_pusher, outage)
        service.publishers.append(relay)  # first: the others start reading while we render
    gate = SendGate(store.sends, service.keys.secret.mac)
    outboxes = _outboxes(app, settings, store, presence, gate, shell)
    service.publishers += [pusher, watcher, *outboxes, _bots(app, service, settings)]
    talker.publishers += [talk_pusher.publish, *([relay.publish_talk] if relay else [])]
    app.extensions["seat_keys"] = SeatKeys(store.seat_keys, service)
    namespace = PresenceNamespace(
        service,
        app.extensions["limits"],
        pusher,
        talker,
        talk_pusher,
        presence=presence,
        announce=relay.publish_presence if relay is not None else lambda game_id: None,
    )
    socketio.on_namespace(namespace)
    # A token handed to a new one or removed: its connections leave the seat's room first.
    pusher.watch_seats(namespace.reseat)
    if not shell:
        presence.start(dropped=namespace.push_presence)
    if relay is not None:
        relay.push_presence = namespace.push_here
        app.extensions["relay"] = relay
        if not shell:
            relay.start()


def _service(settings: Settings, store: SqlEventStore, presence: PresenceBook) -> CourtService:
    """The court service: every adapter below is handed this one."""
    return CourtService(
        store,
        race_seconds=settings.SERVICE_RACE_SECONDS,
        cache_size=settings.STATE_CACHE_SIZE,
        snapshot_every=settings.SNAPSHOT_EVERY,
        database=store.outage,
        presence=presence,
        keys=load_keys(settings),
        rebuild=REBUILD,
    )


def _bots(app: Flask, service: CourtService, settings: Settings) -> BotPlayer:
    """The bot that plays the seats the tables voted to it (started with the deadlines)."""
    bots = app.extensions["bots"] = BotPlayer(service, settings.BOT_PAUSE_SECONDS)
    return bots


def _socketio(app: Flask, settings: Settings) -> SocketIO:
    """Socket.IO without a message queue: each process pushes to its own clients, and the
    others are told ids alone (server/live/relay.py)."""
    return SocketIO(
        app,
        async_mode=settings.ASYNC_MODE,
        max_http_buffer_size=settings.MAX_REQUEST_BYTES,
        serializer=JsonPacket,  # type: ignore[call-arg]  # JSON alone (the stubs lack it)
        # A client's messages are handled one after another on its connection's own task
        # instead of a new one started for each message (python-socketio's default).
        async_handlers=False,
    )


def _redis(app: Flask, settings: Settings) -> tuple[Redis | None, Outage]:
    """With REDIS_URL, several processes: the client of the relay of announcements of appends,
    talk and presence, and of the presence they share, both telling Redis's one outage."""
    outage = Outage("redis")
    if not settings.REDIS_URL:
        return None, outage
    if without_password(settings.REDIS_URL):
        logging.getLogger("small_council.relay").warning(
            "REDIS_URL names no password: whoever reaches Redis can delay every push and "
            "make a player look connected or gone (docs/deployment.md, Redis)"
        )
    return redis_client(settings.REDIS_URL), outage


def _notifier(
    app: Flask, settings: Settings, store: SqlEventStore, gate: SendGate, shell: bool
) -> Notifier:
    """The outbox's publisher (server/notify/) and the sender `start_notices` starts."""
    policy = UrlPolicy(
        allow_http=settings.WEBHOOK_ALLOW_HTTP, allow_private=settings.WEBHOOK_ALLOW_PRIVATE
    )
    notifier = app.extensions["notices"] = Notifier(
        store.notices,
        policy,
        gate=gate,
        public_url=settings.PUBLIC_URL,
        group=settings.NOTICES_GROUP,
    )
    sending = SendSettings(
        timeout=settings.WEBHOOK_TIMEOUT,
        attempts=settings.WEBHOOK_ATTEMPTS,
        backoff=settings.WEBHOOK_BACKOFF,
        poll=settings.NOTICES_POLL,
        senders=max(1, settings.NOTICES_SENDERS),
        group=settings.NOTICES_GROUP,
    )
    notifier.sender = OutboxSender(
        store.notices,
        policy,
        sending,
        refresh=notifier.load,
        database=store.outage,
        compose=notifier.compose,
    )
    if not shell:
        notifier.load()
    return notifier


def _outboxes(
    app: Flask,
    settings: Settings,
    store: SqlEventStore,
    presence: PresenceBook,
    gate: SendGate,
    shell: bool,
) -> tuple[Notifier, Reminders]:
    """The publishers that fill the outboxes: the webhooks' notices and the seats' mails
    (server/notify/reminders.py), each with a sender of its own that `start_notices` starts
    (no mail at all while SMTP_HOST is empty); both send at a request within the gate's
    limits."""
    notifier = _notifier(app, settings, store, gate, shell)
    reminders = app.extensions["reminders"] = Reminders(
        store.mail,
        _mail_settings(settings),
        gate=gate,
        connected=lambda game_id: presence.snapshot(game_id)["seats"],
    )
    if reminders.settings.smtp is not None:
        sending = SendSettings(
            timeout=settings.MAIL_TIMEOUT,
            attempts=settings.MAIL_ATTEMPTS,
            backoff=settings.MAIL_BACKOFF,
            poll=settings.NOTICES_POLL,
            senders=max(1, settings.NOTICES_SENDERS),
        )
        reminders.sender = OutboxSender(
            store.mail,
            UrlPolicy(),
            sending,
            refresh=reminders.load,
            database=store.outage,
            deliver=reminders.deliver,
            name="mail",
        )
        if not shell:
            reminders.load()
    return notifier, reminders


def _mail_settings(settings: Settings) -> MailSettings:
    """The reminders' settings; no mail server while SMTP_HOST is empty."""
    smtp = None
    if settings.SMTP_HOST:
        smtp = SmtpSettings(
            host=settings.SMTP_HOST,
            port=settings.SMTP_PORT,
            security=settings.SMTP_SECURITY,
            user=settings.SMTP_USER,
            password=settings.SMTP_PASSWORD,
            sender=settings.MAIL_FROM,
            timeout=settings.MAIL_TIMEOUT,
        )
    return MailSettings(
        smtp=smtp,
        public_url=settings.PUBLIC_URL,
        verify_hours=settings.MAIL_VERIFY_HOURS,
        turn_gap=settings.MAIL_TURN_GAP,
        links_per_seat=settings.MAIL_LINKS_PER_SEAT,
        links_per_address=settings.MAIL_LINKS_PER_ADDRESS,
        links_per_game=settings.MAIL_LINKS_PER_GAME,
    )


def _add_health_and_spec(
    app: Flask, store: SqlEventStore, process_id: str, api: tuple[Routes, ...]
) -> None:
    """/healthz (the database answers and its last write passed; which process this is) and
    /openapi.json."""

    @app.get("/healthz")
    def healthz() -> Any:
        with store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        about = {"database": store.engine.dialect.name, "process": process_id}
        if store.write_failure is not None:  # until a write passes again
            return error_response(503, *refusal(store.write_failure), **about)
        return jsonify({"status": "ok", **about})

    @app.get("/openapi.json")
    def openapi() -> Any:
        return jsonify(openapi_document(api))


def start_deadlines(app: Flask) -> None:
    """The server process's part of R-4.3: close every step already overdue (one game that
    fails is logged and skipped), then watch the deadlines to come; and the bot's moves of the
    seats it plays (server/live/bots.py), those already due first."""
    watcher: DeadlineWatcher = app.extensions["deadlines"]
    watcher.close_overdue_now()
    watcher.start()
    bots: BotPlayer = app.extensions["bots"]
    bots.watch_all()
    bots.start()


def start_notices(app: Flask) -> None:
    """The server process's senders of the outboxes (server/notify/sender.py): the webhooks'
    notices and the seats' mails."""
    notifier: Notifier = app.extensions["notices"]
    if notifier.sender is not None:
        notifier.sender.start()
    reminders: Reminders = app.extensions["reminders"]
    if reminders.sender is not None:
        reminders.sender.start()
