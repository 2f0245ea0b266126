"""Server settings, read from the environment with safe defaults for one machine."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


def _async_mode() -> Literal["threading", "gevent"]:
    mode = _env("ASYNC_MODE", "threading")
    if mode == "threading":
        return "threading"
    if mode == "gevent":
        return "gevent"
    raise ValueError(f"ASYNC_MODE must be threading or gevent, not {mode!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """Every setting has an environment variable of the same name."""

    DATABASE_URL: str = field(
        default_factory=lambda: _env(
            "DATABASE_URL", f"sqlite:///{ROOT / 'instance' / 'small-council.db'}"
        )
    )
    SQLITE_SYNCHRONOUS: str = field(default_factory=lambda: _env("SQLITE_SYNCHRONOUS", "NORMAL"))
    HOST: str = field(default_factory=lambda: _env("HOST", "127.0.0.1"))
    PORT: int = field(default_factory=lambda: int(_env("PORT", "5000")))
    # What `python app.py` serves through: "gunicorn" (one gevent worker) or "dev"
    # (Werkzeug's development server, for debugging only; also `python app.py --dev`).
    SERVER: str = field(default_factory=lambda: _env("SERVER", "gunicorn"))
    # Flask-SocketIO's async mode, which must match the server: "threading" for Werkzeug
    # (and the tests' in-process servers), "gevent" under gunicorn (server/serve.py sets it).
    ASYNC_MODE: Literal["threading", "gevent"] = field(default_factory=lambda: _async_mode())
    # The address players reach the court at (https://court.example.org): invite links and
    # every absolute URL the server makes start with it, never with a request's Host header.
    # With https, responses also carry Strict-Transport-Security. Empty: the request's own
    # address (one machine, no proxy).
    PUBLIC_URL: str = field(default_factory=lambda: _env("PUBLIC_URL", "").rstrip("/"))
    RULES_PROFILE: str = field(default_factory=lambda: _env("RULES_PROFILE", "default"))
    # Re-decisions after losing an append race. One process never races itself; with
    # several, a process whose cache is fresh can win a few races in a row, so a loser
    # needs more than a handful of tries (tests/scale: 200 commands at once on one game).
    SERVICE_RETRIES: int = field(default_factory=lambda: int(_env("SERVICE_RETRIES", "20")))
    STATE_CACHE_SIZE: int = field(default_factory=lambda: int(_env("STATE_CACHE_SIZE", "1024")))
    # A snapshot of a game's state is kept each time its log passes a multiple of this many
    # versions (server/replay.py); 0 keeps none and rebuilds every past version from the start.
    SNAPSHOT_EVERY: int = field(default_factory=lambda: int(_env("SNAPSHOT_EVERY", "250")))
    # The server process closes overdue steps at start-up and as their deadlines pass;
    # "off" for a process that must not (another one does). Shell commands never do.
    DEADLINES: bool = field(default_factory=lambda: _env("DEADLINES", "on") != "off")
    HISTORY_PAGE_LIMIT: int = field(default_factory=lambda: int(_env("HISTORY_PAGE_LIMIT", "200")))
    # Several server processes share one PostgreSQL database and this Redis (redis://...):
    # Socket.IO's message queue, appends announced to the other processes, presence.
    # Empty: one process, presence kept in its memory.
    REDIS_URL: str = field(default_factory=lambda: _env("REDIS_URL", ""))
    # Seconds a process's connections stay counted as present after it stops answering.
    PRESENCE_TTL: float = field(default_factory=lambda: float(_env("PRESENCE_TTL", "15")))

    # Notices to a game's webhook (Discord, Slack; docs/deployment.md, "Notices"). The server
    # process sends the outbox; "off" for a process that must not (the others do).
    NOTICES: bool = field(default_factory=lambda: _env("NOTICES", "on") != "off")
    # http:// webhooks (https only by default), and webhooks whose host resolves to this
    # machine or a private network (refused by default: the server would post inside it).
    WEBHOOK_ALLOW_HTTP: bool = field(
        default_factory=lambda: _env("WEBHOOK_ALLOW_HTTP", "off") == "on"
    )
    WEBHOOK_ALLOW_PRIVATE: bool = field(
        default_factory=lambda: _env("WEBHOOK_ALLOW_PRIVATE", "off") == "on"
    )
    # Seconds a post may take; posts of one notice at most; seconds before the first retry
    # (doubled for each next one); seconds between looks at the outbox.
    WEBHOOK_TIMEOUT: float = field(default_factory=lambda: float(_env("WEBHOOK_TIMEOUT", "5")))
    WEBHOOK_ATTEMPTS: int = field(default_factory=lambda: int(_env("WEBHOOK_ATTEMPTS", "6")))
    WEBHOOK_BACKOFF: float = field(default_factory=lambda: float(_env("WEBHOOK_BACKOFF", "2")))
    NOTICES_POLL: float = field(default_factory=lambda: float(_env("NOTICES_POLL", "2")))

    # Hostile input (docs/deployment.md, "Limits"). The largest request or Socket.IO message
    # read, in bytes: a court request is a few hundred.
    MAX_REQUEST_BYTES: int = field(default_factory=lambda: int(_env("MAX_REQUEST_BYTES", "16384")))
    # Proxies in front whose X-Forwarded-For is trusted: 0 (none) takes the peer's address as
    # the client's; 1 behind one nginx; a direct client's X-Forwarded-For is never believed.
    TRUSTED_PROXIES: int = field(default_factory=lambda: int(_env("TRUSTED_PROXIES", "0")))
    # Per client address, as RATE/BURST (tokens back per second / at most): "off" for none.
    RATE_LIMITS: bool = field(default_factory=lambda: _env("RATE_LIMITS", "on") != "off")
    LIMIT_GAMES: str = field(default_factory=lambda: _env("LIMIT_GAMES", "0.05/10"))
    LIMIT_SEATS: str = field(default_factory=lambda: _env("LIMIT_SEATS", "0.5/30"))
    LIMIT_CONNECTS: str = field(default_factory=lambda: _env("LIMIT_CONNECTS", "1/40"))
    LIMIT_MESSAGES: str = field(default_factory=lambda: _env("LIMIT_MESSAGES", "60/200"))
    LIMIT_CONNECTION_MESSAGES: str = field(
        default_factory=lambda: _env("LIMIT_CONNECTION_MESSAGES", "20/40")
    )
    LIMIT_CONNECTIONS: int = field(default_factory=lambda: int(_env("LIMIT_CONNECTIONS", "40")))

    def with_overrides(self, overrides: dict[str, Any] | None) -> Settings:
        if not overrides:
            return self
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise KeyError(f"unknown settings: {unknown}")
        return replace(self, **overrides)
