"""The server's settings (config/settings.py): every variable read from the environment one way
per kind, a bad value refused with its name and the value, and overrides for the tests."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from config.settings import Rate, SettingError, Settings

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f.name for f in fields(Settings)]
SWITCHES = [f.name for f in fields(Settings) if f.type == "bool"]
ON_SPELLINGS = ["on", "ON", "true", "True", "yes", "YES", "1", " on "]
OFF_SPELLINGS = ["off", "Off", "false", "FALSE", "no", "No", "0"]
ON_OR_OFF = "must be on or off (or true/false, yes/no, 1/0)"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No variable of the machine running the tests reaches the settings."""
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def another_value(default: Any, name: str) -> tuple[str, Any]:
    """A valid value of the variable other than its default, as written and as read."""
    if name == "ASYNC_MODE":
        return "gevent", "gevent"
    if name == "SERVER":
        return "dev", "dev"
    if name == "SQLITE_SYNCHRONOUS":
        return "FULL", "FULL"
    if name == "SMTP_SECURITY":
        return "tls", "tls"
    if name == "PUBLIC_URL":
        return "https://court.example.org/", "https://court.example.org"
    if isinstance(default, Rate):
        return "2/50", Rate(2, 50)
    if isinstance(default, bool):
        return ("off", False) if default else ("on", True)
    if isinstance(default, int | float):
        return str(default + 3), default + 3
    return "elsewhere", "elsewhere"


def test_switches_are_found_among_the_settings() -> None:
    assert {"DEADLINES", "NOTICES", "RATE_LIMITS", "WEBHOOK_ALLOW_HTTP"} <= set(SWITCHES)


def test_unset_variables_take_their_defaults() -> None:
    # Given an environment that sets none of the variables
    # When the settings are read
    settings = Settings()
    # Then each takes its default: the server's own switches on, the risky ones off
    assert (settings.DEADLINES, settings.NOTICES, settings.RATE_LIMITS) == (True, True, True)
    assert (settings.WEBHOOK_ALLOW_HTTP, settings.WEBHOOK_ALLOW_PRIVATE) == (False, False)
    assert (settings.PORT, settings.PRESENCE_TTL, settings.ASYNC_MODE) == (5000, 15.0, "threading")


@pytest.mark.parametrize("name", NAMES)
def test_each_setting_is_read_from_the_variable_of_its_own_name(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the variable set to a valid value other than its default
    written, read = another_value(getattr(Settings(), name), name)
    monkeypatch.setenv(name, written)
    if name == "SMTP_HOST":  # a mail server needs a From address and links to the court
        monkeypatch.setenv("MAIL_FROM", "court@example.org")
        monkeypatch.setenv("PUBLIC_URL", "https://court.example.org")
    # When the settings are read
    # Then the setting holds that value
    assert getattr(Settings(), name) == read


def test_a_mail_server_without_a_from_address_stops_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a mail server named and no From address for its mails
    monkeypatch.setenv("SMTP_HOST", "mail.example.org")
    # When the settings are read, Then they name the missing variable
    with pytest.raises(SettingError, match="MAIL_FROM"):
        Settings()


def test_a_mail_server_without_a_public_url_stops_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a mail server and its From address, and no address the court is reached at
    monkeypatch.setenv("SMTP_HOST", "mail.example.org")
    monkeypatch.setenv("MAIL_FROM", "court@example.org")
    # When the settings are read, Then they say that the mails' links need PUBLIC_URL
    with pytest.raises(SettingError, match="PUBLIC_URL must be set when SMTP_HOST is"):
        Settings()
    monkeypatch.setenv("PUBLIC_URL", "https://court.example.org")
    assert Settings().PUBLIC_URL == "https://court.example.org"


@pytest.mark.parametrize(
    "written",
    [
        "court.example.org",
        "ftp://court.example.org",
        "https://",
        "https://x.org/?a=1",
        "https://x.org/#top",
        "https://ann:pw@x.org",
    ],
)
def test_a_public_url_that_is_no_address_of_the_court_stops_the_server(
    written: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUBLIC_URL", written)
    with pytest.raises(SettingError, match="PUBLIC_URL must be the address players reach"):
        Settings()


def test_the_server_says_why_it_cannot_mail_without_a_public_url() -> None:
    # Given `python app.py` with a mail server and no PUBLIC_URL
    env = {k: v for k, v in os.environ.items() if k not in NAMES}
    env |= {"SMTP_HOST": "mail.example.org", "MAIL_FROM": "court@example.org"}
    # When it starts, Then it stops at once with the sentence, before serving anything
    done = subprocess.run(
        [sys.executable, "app.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "Small Council cannot start: PUBLIC_URL must be set when SMTP_HOST is" in done.stderr


@pytest.mark.parametrize("name", SWITCHES)
@pytest.mark.parametrize(
    ("spelling", "meaning"),
    [(s, True) for s in ON_SPELLINGS] + [(s, False) for s in OFF_SPELLINGS],
)
def test_every_switch_reads_each_spelling_of_on_and_off(
    name: str, spelling: str, meaning: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a switch written in one of the accepted spellings, in any case
    monkeypatch.setenv(name, spelling)
    # When the settings are read
    # Then it is on or off as the word says
    assert getattr(Settings(), name) is meaning


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DEADLINES", "maybe", f"DEADLINES {ON_OR_OFF}, not 'maybe'"),
        ("WEBHOOK_ALLOW_HTTP", "", f"WEBHOOK_ALLOW_HTTP {ON_OR_OFF}, not ''"),
        ("RATE_LIMITS", "2", f"RATE_LIMITS {ON_OR_OFF}, not '2'"),
        ("PORT", "abc", "PORT must be a whole number, not 'abc'"),
        ("SNAPSHOT_EVERY", "2.5", "SNAPSHOT_EVERY must be a whole number, not '2.5'"),
        ("PRESENCE_TTL", "soon", "PRESENCE_TTL must be a number, not 'soon'"),
        ("WEBHOOK_TIMEOUT", "inf", "WEBHOOK_TIMEOUT must be a number, not 'inf'"),
        ("ASYNC_MODE", "eventlet", "ASYNC_MODE must be threading or gevent, not 'eventlet'"),
        ("SERVER", "uwsgi", "SERVER must be gunicorn or dev, not 'uwsgi'"),
        (
            "LIMIT_IPV6_PREFIX",
            "129",
            "LIMIT_IPV6_PREFIX must be a whole number from 0 to 128, not '129'",
        ),
        (
            "SQLITE_SYNCHRONOUS",
            "fast",
            "SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA, not 'fast'",
        ),
        # Values that made every request fail (500) or be refused, once the server had started.
        (
            "STATE_CACHE_SIZE",
            "-1",
            "STATE_CACHE_SIZE must be a whole number from 0 to 10000000, not '-1'",
        ),
        (
            "MAX_REQUEST_BYTES",
            "0",
            "MAX_REQUEST_BYTES must be a whole number from 1024 to 67108864, not '0'",
        ),
        (
            "HISTORY_PAGE_LIMIT",
            "-1",
            "HISTORY_PAGE_LIMIT must be a whole number from 1 to 100000, not '-1'",
        ),
        ("TRUSTED_PROXIES", "-1", "TRUSTED_PROXIES must be a whole number from 0 to 32, not '-1'"),
        ("MAIL_ATTEMPTS", "0", "MAIL_ATTEMPTS must be a whole number from 1 to 1000, not '0'"),
    ],
)
def test_a_bad_value_is_refused_naming_the_variable_and_the_value(
    name: str, value: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a variable set to a value of the wrong kind
    monkeypatch.setenv(name, value)
    # When the settings are read
    # Then they are refused with the variable's name and the value
    with pytest.raises(SettingError) as refused:
        Settings()
    assert str(refused.value) == message


def test_overrides_replace_the_named_settings_and_keep_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given settings read with one variable set
    monkeypatch.setenv("PORT", "8080")
    settings = Settings()
    # When some are overridden
    changed = settings.with_overrides({"DEADLINES": False, "HOST": "0.0.0.0"})
    # Then those change, the rest stay as read, and the original is untouched
    assert (changed.DEADLINES, changed.HOST, changed.PORT) == (False, "0.0.0.0", 8080)
    assert (settings.DEADLINES, settings.HOST) == (True, "127.0.0.1")
    assert settings.with_overrides(None) is settings and settings.with_overrides({}) is settings


def test_an_override_of_an_unknown_setting_is_refused() -> None:
    with pytest.raises(KeyError, match="DEADLINE"):
        Settings().with_overrides({"DEADLINE": False})


def test_python_app_py_with_a_bad_value_says_so_and_exits_without_a_traceback() -> None:
    # Given a port that is not a number
    env = {k: v for k, v in os.environ.items() if k not in NAMES}
    env["PORT"] = "abc"
    # When the server is started as an operator would
    done = subprocess.run(
        [sys.executable, "app.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    # Then it stops at once, saying which variable is wrong and why, without a traceback
    assert done.returncode != 0
    assert "PORT must be a whole number, not 'abc'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("written", ["fast", "0/10", "5/0.5", "nan/3", "1/inf", ""])
def test_a_rate_that_is_not_rate_over_burst_is_refused_with_its_name(
    written: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a limit written as no rate the server can keep
    monkeypatch.setenv("LIMIT_MESSAGES", written)
    # When the settings are read
    with pytest.raises(SettingError) as refused:
        Settings()
    # Then the error names the variable, the shape it must have and the value
    assert str(refused.value) == (
        f"LIMIT_MESSAGES must be RATE/BURST (tokens back per second / at most), not {written!r}"
    )


def test_an_override_given_as_text_is_read_as_the_variable_would_be() -> None:
    # Given overrides written as the environment writes them
    settings = Settings().with_overrides({"LIMIT_GAMES": "1/5", "PORT": "8080", "NOTICES": "off"})
    # Then each is read by its kind, and a bad one is refused like a bad variable
    games = settings.LIMIT_GAMES
    assert games == Rate(1, 5)
    assert (settings.PORT, settings.NOTICES) == (8080, False)
    with pytest.raises(SettingError):
        Settings().with_overrides({"LIMIT_GAMES": "often"})
