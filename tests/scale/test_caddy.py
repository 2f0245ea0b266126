"""One machine on the internet, as docs/deployment.md sets it up, on loopback: Caddy with
deploy/Caddyfile and its internal CA terminates TLS in front of a court server started as
`make run` starts it, with PUBLIC_URL set to Caddy's https address and TRUSTED_PROXIES=1."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from devtools.caddy import CADDYFILE, Caddy, caddy_binary, running_caddy
from devtools.servers import ROOT, CourtServer, free_port
from server.http.security import HEADERS, HSTS
from tests.scale.clients import HttpClient, LiveClient
from tests.server.http.court_client import create_game, join
from tests.services import unavailable

GUIDE = ROOT / "docs" / "deployment.md"
README = ROOT / "README.md"
SECTION = "one-machine-on-the-internet"
UNIT = ROOT / "deploy" / "small-council.service"


@dataclass
class Public:
    caddy: Caddy
    server: CourtServer


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Public]:
    if caddy_binary() is None:
        unavailable("caddy is not installed: apt-get install caddy")
    folder = tmp_path_factory.mktemp("caddy")
    port = free_port()
    env = {
        "DATABASE_URL": f"sqlite:///{folder}/court.db",
        "PUBLIC_URL": f"https://127.0.0.1:{port}",
        "TRUSTED_PROXIES": "1",
    }
    server = CourtServer(env, folder / "server.log").start()
    try:
        with running_caddy(f"127.0.0.1:{server.port}", folder, port) as caddy:
            assert caddy.url == env["PUBLIC_URL"]
            yield Public(caddy, server)
    finally:
        server.stop()


def test_a_page_through_caddy_carries_one_hsts_header_and_the_security_headers(
    public: Public,
) -> None:
    page = public.caddy.session().get(f"{public.caddy.url}/", timeout=10)

    assert page.status_code == 200
    assert page.headers["Content-Type"].startswith("text/html")
    assert "<title>" in page.text
    for name, value in HEADERS.items():
        assert page.headers.get(name) == value, name
    # requests joins repeated headers with a comma: one HSTS header, one Server header
    assert page.headers["Strict-Transport-Security"] == HSTS
    assert page.headers["Server"] == "Caddy"


def test_the_certificate_is_caddys_own_and_plain_http_is_not_served(public: Public) -> None:
    system = requests.Session()
    system.trust_env = False  # the system's CAs alone, which never issued Caddy's root
    with pytest.raises(requests.exceptions.SSLError):
        system.get(f"{public.caddy.url}/healthz", timeout=10)
    plain = public.caddy.url.replace("https://", "http://")
    assert system.get(f"{plain}/healthz", timeout=10).status_code == 400


def test_an_invite_names_the_https_address_and_opens_through_caddy(public: Public) -> None:
    session = public.caddy.session()
    created = create_game(HttpClient(public.caddy.url, session))  # type: ignore[arg-type]
    invite = created["invite_url"]

    assert invite == f"{public.caddy.url}/games/{created['game_id']}#invite={created['invite']}"
    page = session.get(invite, timeout=10)  # the fragment stays in the browser
    assert page.status_code == 200
    assert page.history == []  # no redirect on the way
    assert page.headers["Content-Type"].startswith("text/html")


def test_a_socketio_client_polls_then_upgrades_to_wss_through_caddy_and_gets_pushes(
    public: Public,
) -> None:
    session = public.caddy.session()
    http = HttpClient(public.caddy.url, session)
    created = create_game(http, players=3)  # type: ignore[arg-type]
    game_id = created["game_id"]
    seated = join(http, game_id, "stark", created["host_token"], created["invite"])  # type: ignore[arg-type]

    # as a browser does: long-polling first, then the upgrade to a WebSocket
    client = LiveClient("stark", session)
    client.connect(public.caddy.url, game_id, seated["token"], transports=("polling", "websocket"))
    try:
        client.wait_for(lambda c: bool(c.welcomes))
        assert client.sio.transport() == "websocket"
        assert client.welcomes[0]["version"] >= 1
        for house in ("lannister", "tyrell"):
            join(http, game_id, house, invite=created["invite"])  # type: ignore[arg-type]
        client.wait_for(lambda c: len(c.records) >= 2)  # the two seats taken, pushed
        assert client.sio.transport() == "websocket"
    finally:
        client.close()


def shown(guide: str, language: str) -> list[str]:
    """The guide's code blocks in `language`, each as written, its list indent taken off."""
    blocks = re.findall(rf"^( *)```{language}\n(.*?)^\1```", guide, re.DOTALL | re.MULTILINE)
    return [re.sub(rf"^{indent}", "", body, flags=re.MULTILINE) for indent, body in blocks]


def test_the_guide_shows_the_caddyfile_and_the_unit_and_the_quick_start_links_to_it() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    for template, language in ((CADDYFILE, "caddy"), (UNIT, "ini")):
        text = template.read_text(encoding="utf-8")
        start = text.index("court.example.org {") if language == "caddy" else text.index("[Unit]")
        assert shown(guide, language) == [text[start:]], template.name
    assert re.search(r"^## One machine on the internet$", guide, re.MULTILINE)

    readme = README.read_text(encoding="utf-8")
    quick_start = readme[readme.index("## Quick start") :].split("\n## ")[0]
    assert f"docs/deployment.md#{SECTION}" in quick_start


def test_systemd_accepts_the_guides_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    # The unit as the guide gives it, but for a program and a user this machine has.
    unit = UNIT.read_text(encoding="utf-8")
    unit = unit.replace("/srv/small-council/.venv/bin/python", shutil.which("true") or "/bin/true")
    unit = unit.replace("User=court", f"User={pwd.getpwuid(os.getuid()).pw_name}")
    (tmp_path / UNIT.name).write_text(unit, encoding="utf-8")

    checked = subprocess.run(
        [analyze, "verify", "--man=no", str(tmp_path / UNIT.name)],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr
