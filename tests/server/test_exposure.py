"""LAN mode (server/tools/exposure.py): a server told to listen beyond this machine says at start
that
everyone on the network reaches it without TLS, and which PUBLIC_URL makes invite links work;
on loopback it says nothing. No test binds beyond 127.0.0.1: `main` is stopped before serving."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from config.settings import Settings
from server.tools import serve
from server.tools.exposure import exposure_warnings, is_loopback


def settings(**overrides: object) -> Settings:
    return Settings().with_overrides({"PUBLIC_URL": "", "TRUSTED_PROXIES": 0, **overrides})


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_a_server_on_loopback_warns_of_nothing(host: str) -> None:
    assert is_loopback(host)
    assert exposure_warnings(settings(HOST=host), "192.168.1.20") == []


def test_lan_mode_warns_that_everyone_on_the_network_reaches_it_without_tls() -> None:
    warnings = exposure_warnings(settings(HOST="0.0.0.0", PORT=5000), "192.168.1.20")

    exposed, invites = warnings
    assert "HOST=0.0.0.0" in exposed
    assert "reachable by everyone on this network at http://192.168.1.20:5000" in exposed
    assert "without TLS" in exposed
    assert "One machine on the internet" in exposed  # where to go for friends elsewhere
    assert "PUBLIC_URL is not set" in invites
    assert "set PUBLIC_URL=http://192.168.1.20:5000 " in invites


def test_lan_mode_without_a_known_address_still_says_what_to_set() -> None:
    *_, invites = exposure_warnings(settings(HOST="::", PORT=8000), None)

    assert "set PUBLIC_URL=http://<this machine's address>:8000 " in invites


@pytest.mark.parametrize(
    ("host", "url"),
    [("192.168.1.20", "http://192.168.1.20:5000"), ("fd00::20", "http://[fd00::20]:5000")],
)
def test_a_named_address_is_the_one_suggested(host: str, url: str) -> None:
    exposed, invites = exposure_warnings(settings(HOST=host), "10.0.0.9")

    assert f"everyone on this network at {url}," in exposed
    assert f"set PUBLIC_URL={url} " in invites


def test_lan_mode_with_public_url_names_it_as_the_start_of_invite_links() -> None:
    public = "http://192.168.1.20:5000"
    _, invites = exposure_warnings(settings(HOST="0.0.0.0", PUBLIC_URL=public), "192.168.1.20")

    assert invites.startswith(f"Invite links start with PUBLIC_URL={public}")


def test_lan_mode_with_trusted_proxies_warns_that_clients_choose_their_address() -> None:
    warnings = exposure_warnings(settings(HOST="0.0.0.0", TRUSTED_PROXIES=1), "192.168.1.20")

    assert any("TRUSTED_PROXIES=1" in w and "X-Forwarded-For" in w for w in warnings)
    assert len(exposure_warnings(settings(HOST="0.0.0.0"), None)) == 2


@pytest.mark.parametrize("dev", [False, True])
def test_python_app_py_logs_the_warning_before_it_serves(
    dev: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    served: list[str] = []
    monkeypatch.setattr(serve.CourtApplication, "run", lambda _self: served.append("gunicorn"))
    monkeypatch.setattr(serve, "serve_dev", lambda _settings: served.append("dev"))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/court.db")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    caplog.set_level(logging.WARNING, logger="small_council.serve")

    assert serve.main(["--dev"] if dev else []) == 0

    assert served == ["dev" if dev else "gunicorn"]
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("reachable by everyone on this network" in line for line in said), said
    assert any("PUBLIC_URL is not set" in line for line in said), said


def test_python_app_py_on_loopback_logs_no_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(serve.CourtApplication, "run", lambda _self: None)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/court.db")
    monkeypatch.setenv("HOST", "127.0.0.1")
    caplog.set_level(logging.WARNING, logger="small_council.serve")

    assert serve.main([]) == 0

    assert [r for r in caplog.records if r.name == "small_council.serve"] == []
