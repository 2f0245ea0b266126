"""Server settings, read from the environment with safe defaults for one machine.

Every variable is parsed here, one way per kind, by the type of its default: a switch is
on/off, true/false, yes/no or 1/0 in any case; a count a whole number; a duration a finite
number; a rate RATE/BURST; a choice one of its listed values. Anything else stops the server with a
SettingError naming the variable and the value (`python app.py` prints it and exits).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")

ON = frozenset({"on", "true", "yes", "1"})
OFF = frozenset({"off", "false", "no", "0"})
SERVERS = ("gunicorn", "dev")
ASYNC_MODES: tuple[Literal["threading", "gevent"], ...] = ("threading", "gevent")
SQLITE_SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
SMTP_SECURITIES = ("starttls", "tls", "none")


class SettingError(ValueError):
    """An environment variable the server cannot read; the message names it and its value."""


@dataclass(frozen=True, slots=True)
class Rate:
    """`per_second` tokens come back each second, up to `burst`; written `RATE/BURST`."""

    per_second: float
    burst: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        rate, _, burst = text.partition("/")
        try:
            found = cls(float(rate), float(burst or rate))
        except ValueError:
            found = cls(math.nan, math.nan)
        if not (math.isfinite(found.per_second) and math.isfinite(found.burst)):
            raise ValueError(f"a rate is RATE/BURST, two numbers, not {text!r}")
        if found.per_second <= 0 or found.burst < 1:
            raise ValueError(f"a rate is RATE/BURST with RATE > 0 and BURST >= 1, not {text!r}")
        return found

    def __str__(self) -> str:
        return f"{self.per_second:g}/{self.burst:g}"


def _switch(name: str, raw: str) -> bool:
    word = raw.strip().lower()
    if word in ON or word in OFF:
        return word in ON
    raise SettingError(f"{name} must be on or off (or true/false, yes/no, 1/0), not {raw!r}")


def _whole(name: str, raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise SettingError(f"{name} must be a whole number, not {raw!r}") from None


def _number(name: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise SettingError(f"{name} must be a number, not {raw!r}")
    return value


def _rate(name: str, raw: str) -> Rate:
    try:
        return Rate.parse(raw.strip())
    except ValueError:
        raise SettingError(
            f"{name} must be RATE/BURST (tokens back per second / at most), not {raw!r}"
        ) from None


# By the exact type of a setting's default: a bool is an int too, but is read as a switch.
_PARSERS: dict[type, Callable[[str, str], Any]] = {
    bool: _switch,
    int: _whole,
    float: _number,
    str: lambda _name, raw: raw,
    Rate: _rate,
}


def _read(name: str, default: T, choices: tuple[T, ...] | range = ()) -> T:
    """The environment's value of `name`, parsed as `default`'s type; `default` when unset.
    With `choices` (a range, for a count), the value must be one of them."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value: T = _PARSERS[type(default)](name, raw)
    if choices and value not in choices:
        if isinstance(choices, range):
            listed = f"a whole number from {choices[0]} to {choices[-1]}"
        else:
            listed = ", ".join(str(c) for c in choices[:-1]) + f" or {choices[-1]}"
        raise SettingError(f"{name} must be {listed}, not {raw!r}")
    return value


def _setting(name: str, default: T, choices: tuple[T, ...] | range = ()) -> T:
    """A field read from the environment variable `name` each time Settings() is made."""
    return field(default_factory=lambda: _read(name, default, choices))


def _key(name: str) -> str:
    """A key read from the environment variable `name` (empty: none), which no repr shows."""
    return field(default_factory=lambda: _read(name, ""), repr=False)


def _is_base_url(text: str) -> bool:
    """Whether `text` is an http(s) address with a host, and no query, fragment or login."""
    parts = urlsplit(text)
    try:
        host = parts.hostname
    except ValueError:
        host = None
    plain = not (parts.query or parts.fragment or parts.username or parts.password)
    return parts.scheme in ("http", "https") and bool(host) and plain


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """Every setting has an environment variable of the same name."""

    DATABASE_URL: str = _setting(
        "DATABASE_URL", f"sqlite:///{ROOT / 'instance' / 'small-council.db'}"
    )
    SQLITE_SYNCHRONOUS: str = _setting("SQLITE_SYNCHRONOUS", "NORMAL", SQLITE_SYNCHRONOUS_MODES)
    # Connections a server process keeps open to the database (its writing one among them;
    # as many more while all are busy), and the seconds a request waits for one before it is
    # refused as `database_unavailable`. PostgreSQL's max_connections must exceed twice the
    # size, times the processes.
    DATABASE_POOL_SIZE: int = _setting("DATABASE_POOL_SIZE", 10, range(1, 501))
    DATABASE_POOL_TIMEOUT: float = _setting("DATABASE_POOL_TIMEOUT", 30.0)
    HOST: str = _setting("HOST", "127.0.0.1")
    PORT: int = _setting("PORT", 5000)
    # What `python app.py` serves through: "gunicorn" (one gevent worker) or "dev"
    # (Werkzeug's development server, for debugging only; also `python app.py --dev`).
    SERVER: str = _setting("SERVER", "gunicorn", SERVERS)
    # Flask-SocketIO's async mode, which must match the server: "threading" for Werkzeug
    # (and the tests' in-process servers), "gevent" under gunicorn (server/tools/serve.py sets it).
    ASYNC_MODE: Literal["threading", "gevent"] = _setting("ASYNC_MODE", "threading", ASYNC_MODES)
    # The address players reach the court at (https://court.example.org): invite links and
    # every absolute URL the server makes start with it, never with a request's Host header.
    # With https, responses also carry Strict-Transport-Security. Empty: the request's own
    # address (one machine, no proxy).
    PUBLIC_URL: str = field(default_factory=lambda: _read("PUBLIC_URL", "").rstrip("/"))
    RULES_PROFILE: str = _setting("RULES_PROFILE", "default")
    # How long a command that loses its append to another process is decided again before it
    # is refused as busy. One process never races itself; with several, a process with many
    # commands queued for one game wins every race until its queue is empty, so the loser
    # waits for time, not for a count of tries (tests/scale: 200 commands at once on one game).
    SERVICE_RACE_SECONDS: float = _setting("SERVICE_RACE_SECONDS", 10.0)
    STATE_CACHE_SIZE: int = _setting("STATE_CACHE_SIZE", 1024, range(0, 10_000_001))
    # A snapshot of a game's state is kept each time its log passes a multiple of this many
    # versions (server/service/replay.py); 0 keeps none and rebuilds every past version from the
    # start.
    SNAPSHOT_EVERY: int = _setting("SNAPSHOT_EVERY", 250, range(0, 1_000_001))
    # The server process closes overdue steps at start-up and as their deadlines pass;
    # off for a process that must not (another one does). Shell commands never do.
    DEADLINES: bool = _setting("DEADLINES", True)
    # Seconds the bot waits, once the court waits on a seat it plays, before it moves: a table
    # sees the turn come to the seat before the move is made (server/live/bots.py).
    BOT_PAUSE_SECONDS: float = _setting("BOT_PAUSE_SECONDS", 3.0)
    HISTORY_PAGE_LIMIT: int = _setting("HISTORY_PAGE_LIMIT", 200, range(1, 100_001))
    # Several server processes share one PostgreSQL database and this Redis (redis://...):
    # appends, talk lines and presence changes announced to the other processes (ids only),
    # and presence itself.
    # Empty: one process, presence kept in its memory.
    REDIS_URL: str = _setting("REDIS_URL", "")
    # Seconds a process's connections stay counted as present after it stops answering.
    PRESENCE_TTL: float = _setting("PRESENCE_TTL", 15.0)

    # The server's keys, never in the database (docs/deployment.md, "Keys"); every process
    # serving one database must hold the same ones: give them to each by these variables.
    # The instance secret (at least 32 characters) seals the snapshots beside the log: a row
    # without its seal is never read. Empty: the file INSTANCE_SECRET_FILE names, made with a
    # new secret on first start (empty: secret.key in the instance folder, the SQLite file's
    # folder, or instance/ with PostgreSQL).
    INSTANCE_SECRET: str = _key("INSTANCE_SECRET")
    INSTANCE_SECRET_FILE: str = _setting("INSTANCE_SECRET_FILE", "")
    # The Ed25519 key the server signs checkpoints with: base64 of the 32-byte private key.
    # Empty: the file SIGNING_KEY_FILE names, made on first start (empty: signing.key in the
    # instance folder). Public keys of keys used before, still listed so that checkpoints
    # signed with them verify: SIGNING_RETIRED_KEYS (base64, separated by commas), and the
    # lines of the key file's name + ".retired", which `flask court rotate-signing-key` writes.
    SIGNING_KEY: str = _key("SIGNING_KEY")
    SIGNING_KEY_FILE: str = _setting("SIGNING_KEY_FILE", "")
    SIGNING_RETIRED_KEYS: str = _setting("SIGNING_RETIRED_KEYS", "")

    # Notices to a game's webhook (Discord, Slack; docs/deployment.md, "Notices"). The server
    # process sends the outbox; off for a process that must not (the others do).
    NOTICES: bool = _setting("NOTICES", True)
    # http:// webhooks (https only by default), and webhooks whose host resolves to this
    # machine or a private network (refused by default: the server would post inside it).
    WEBHOOK_ALLOW_HTTP: bool = _setting("WEBHOOK_ALLOW_HTTP", False)
    WEBHOOK_ALLOW_PRIVATE: bool = _setting("WEBHOOK_ALLOW_PRIVATE", False)
    # Seconds a post may take, all told (connecting, TLS, sending, the whole answer); posts
    # of one notice at most; seconds before the first retry (doubled for each next one);
    # seconds between looks at the outbox; games whose notices a process posts at once (a
    # slow receiver holds up its own game alone).
    WEBHOOK_TIMEOUT: float = _setting("WEBHOOK_TIMEOUT", 5.0)
    WEBHOOK_ATTEMPTS: int = _setting("WEBHOOK_ATTEMPTS", 6, range(1, 1001))
    WEBHOOK_BACKOFF: float = _setting("WEBHOOK_BACKOFF", 2.0)
    NOTICES_POLL: float = _setting("NOTICES_POLL", 2.0)
    NOTICES_SENDERS: int = _setting("NOTICES_SENDERS", 8)
    # Seconds a game's notice waits for those that follow it: what the court tells within
    # them goes out as one post (0: each notice is a post of its own, at once).
    NOTICES_GROUP: float = _setting("NOTICES_GROUP", 5.0)

    # Reminders by mail to the seats that give an address (docs/deployment.md, "Reminders by
    # mail"): off while SMTP_HOST is empty. The server's mail server, its port and how the
    # connection is secured: "starttls" (usually port 587), "tls" (465), or "none" (a relay
    # on this machine or a trusted network only: the password and the addresses go in clear).
    SMTP_HOST: str = _setting("SMTP_HOST", "")
    SMTP_PORT: int = _setting("SMTP_PORT", 587, range(1, 65536))
    SMTP_SECURITY: str = _setting("SMTP_SECURITY", "starttls", SMTP_SECURITIES)
    # The account the server logs in with (empty: it does not log in), and the From address.
    SMTP_USER: str = _setting("SMTP_USER", "")
    SMTP_PASSWORD: str = _key("SMTP_PASSWORD")
    MAIL_FROM: str = _setting("MAIL_FROM", "")
    # Seconds one mail may take, all told; mails of one reminder at most; seconds before the
    # first retry (doubled for each next one).
    MAIL_TIMEOUT: float = _setting("MAIL_TIMEOUT", 10.0)
    MAIL_ATTEMPTS: int = _setting("MAIL_ATTEMPTS", 6, range(1, 1001))
    MAIL_BACKOFF: float = _setting("MAIL_BACKOFF", 30.0)
    # Hours a verification link works; seconds at least between two "your turn" mails to one
    # seat (one a step at most in any case).
    MAIL_VERIFY_HOURS: float = _setting("MAIL_VERIFY_HOURS", 24.0)
    MAIL_TURN_GAP: float = _setting("MAIL_TURN_GAP", 600.0)
    # Mails with a verification link in any hour, at most: to one seat (besides one a minute),
    # to one address from any seat of any game, and to the seats of one game. An address may
    # be anyone's: these keep the court from mailing a stranger over and over.
    MAIL_LINKS_PER_SEAT: int = _setting("MAIL_LINKS_PER_SEAT", 3, range(1, 1001))
    MAIL_LINKS_PER_ADDRESS: int = _setting("MAIL_LINKS_PER_ADDRESS", 5, range(1, 1001))
    MAIL_LINKS_PER_GAME: int = _setting("MAIL_LINKS_PER_GAME", 12, range(1, 10001))

    # Hostile input (docs/deployment.md, "Limits"). The largest request or Socket.IO message
    # read, in bytes: a court request is a few hundred.
    MAX_REQUEST_BYTES: int = _setting("MAX_REQUEST_BYTES", 16384, range(1024, 64 * 2**20 + 1))
    # Proxies in front whose X-Forwarded-For is trusted: 0 (none) takes the peer's address as
    # the client's; 1 behind one nginx; a direct client's X-Forwarded-For is never believed.
    TRUSTED_PROXIES: int = _setting("TRUSTED_PROXIES", 0, range(0, 33))
    # Per client address, as RATE/BURST (tokens back per second / at most); off for none.
    RATE_LIMITS: bool = _setting("RATE_LIMITS", True)
    LIMIT_GAMES: Rate = _setting("LIMIT_GAMES", Rate(0.05, 10))
    LIMIT_SEATS: Rate = _setting("LIMIT_SEATS", Rate(0.5, 30))
    LIMIT_CONNECTS: Rate = _setting("LIMIT_CONNECTS", Rate(1, 40))
    LIMIT_MESSAGES: Rate = _setting("LIMIT_MESSAGES", Rate(60, 200))
    LIMIT_CONNECTION_MESSAGES: Rate = _setting("LIMIT_CONNECTION_MESSAGES", Rate(20, 40))
    LIMIT_CONNECTIONS: int = _setting("LIMIT_CONNECTIONS", 40)
    # An IPv6 client is limited by its network, the first this many bits of its address: one
    # home or host is given a whole /64 and picks any address in it. IPv4 (and IPv6 written
    # for an IPv4 address, ::ffff:a.b.c.d) is limited by the whole address.
    LIMIT_IPV6_PREFIX: int = _setting("LIMIT_IPV6_PREFIX", 64, range(0, 129))

    def __post_init__(self) -> None:
        if self.PUBLIC_URL and not _is_base_url(self.PUBLIC_URL):
            raise SettingError(
                "PUBLIC_URL must be the address players reach the court at, as "
                f"https://court.example.org (no query, fragment or login), not {self.PUBLIC_URL!r}"
            )
        if self.SMTP_HOST and "@" not in self.MAIL_FROM:
            raise SettingError(
                f"MAIL_FROM must be the From address of the reminders by mail (SMTP_HOST is "
                f"set), not {self.MAIL_FROM!r}"
            )
        if self.SMTP_HOST and not self.PUBLIC_URL:
            raise SettingError(
                "PUBLIC_URL must be set when SMTP_HOST is: every link a mail holds starts with "
                "it (https://court.example.org), never with an address a request named"
            )

    def instance_file(self, configured: str, name: str) -> Path:
        """The path a key file setting names, or `name` in the instance folder: the SQLite
        file's folder (its backups and its keys side by side), instance/ otherwise."""
        if configured:
            return Path(configured)
        if self.DATABASE_URL.startswith("sqlite:///") and self.DATABASE_URL != "sqlite:///:memory:":
            return Path(self.DATABASE_URL.removeprefix("sqlite:///")).parent / name
        return ROOT / "instance" / name

    @property
    def secret_file(self) -> Path:
        return self.instance_file(self.INSTANCE_SECRET_FILE, "secret.key")

    @property
    def signing_key_file(self) -> Path:
        return self.instance_file(self.SIGNING_KEY_FILE, "signing.key")

    def with_overrides(self, overrides: dict[str, Any] | None) -> Settings:
        """These settings with some replaced; a value given as text is read as the variable's
        would be (`{"LIMIT_GAMES": "1/5"}`)."""
        if not overrides:
            return self
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise KeyError(f"unknown settings: {unknown}")
        return replace(self, **{k: self._read_override(k, v) for k, v in overrides.items()})

    def _read_override(self, name: str, value: Any) -> Any:
        kind = type(getattr(self, name))
        if isinstance(value, str) and kind is not str:
            return _PARSERS[kind](name, value)
        return value
