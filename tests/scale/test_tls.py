"""The public deployment of docs/deployment.md on loopback: nginx with deploy/nginx-tls.conf
and a self-signed certificate terminates TLS in front of a court server started as `make run`
starts it, with PUBLIC_URL set to nginx's https address."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from devtools.nginx import CONFIG, TLS_CONFIG, Certificate, nginx_binary, running_nginx, self_signed
from devtools.servers import CourtServer, free_port
from server.http.security import HEADERS
from tests.scale.clients import HttpClient, LiveClient
from tests.server.http.court_client import create_game, lobby_game, start
from tests.services import unavailable

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "deployment.md"


@dataclass
class Public:
    url: str  # nginx's https address, the server's PUBLIC_URL
    certificate: Certificate
    server: CourtServer

    def session(self) -> requests.Session:
        """A session that trusts the test's certificate, and only it."""
        session = requests.Session()
        session.trust_env = False  # else REQUESTS_CA_BUNDLE, if set, wins over `verify`
        session.verify = str(self.certificate.cert)
        return session


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Public]:
    if nginx_binary() is None:
        unavailable("nginx is not installed: apt-get install nginx")
    if shutil.which("openssl") is None:
        unavailable("openssl is not installed: apt-get install openssl")
    folder = tmp_path_factory.mktemp("tls")
    certificate = self_signed(folder)
    port = free_port()
    url = f"https://127.0.0.1:{port}"
    env = {"DATABASE_URL": f"sqlite:///{folder}/court.db", "PUBLIC_URL": url}
    server = CourtServer(env, folder / "server.log").start()
    try:
        backends = [f"127.0.0.1:{server.port}"]
        with running_nginx(
            backends, folder, port, config=TLS_CONFIG, certificate=certificate
        ) as started:
            assert started == url
            yield Public(url, certificate, server)
    finally:
        server.stop()


def test_a_page_over_https_carries_the_security_headers_hsts_once_and_no_version(
    public: Public,
) -> None:
    page = public.session().get(f"{public.url}/", timeout=10)

    assert page.status_code == 200
    for name, value in HEADERS.items():
        assert page.headers.get(name) == value, name
    # one HSTS header: nginx's, the server's hidden (requests would join two with a comma)
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert page.headers["Server"] == "nginx"
    assert "Secure" in page.headers["Set-Cookie"]


def test_the_certificate_is_checked_and_plain_http_is_not_served(public: Public) -> None:
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(f"{public.url}/healthz", timeout=10, verify=True)  # the system's CAs
    plain = public.url.replace("https://", "http://")
    assert requests.get(f"{plain}/healthz", timeout=10).status_code == 400  # nginx: TLS port


def test_invites_name_the_public_address_and_a_client_over_wss_gets_pushes(
    public: Public,
) -> None:
    session = public.session()
    http = HttpClient(public.url, session)
    created = create_game(http)  # type: ignore[arg-type]
    assert (
        created["invite_url"]
        == f"{public.url}/games/{created['game_id']}#invite={created['invite']}"
    )
    game = lobby_game(http)  # type: ignore[arg-type]

    watcher = LiveClient("stark", session).connect(public.url, game.id, game.tokens["stark"])
    try:
        assert watcher.sio.transport() == "websocket"
        started = start(http, game)  # type: ignore[arg-type]
        watcher.wait_version(started)
        assert [r["version"] for r in watcher.records][-1] == started
    finally:
        watcher.close()


def test_the_guide_shows_both_nginx_configurations() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    blocks = re.findall(r"```nginx\n(.*?)```", guide, re.DOTALL)
    shown = [c.read_text(encoding="utf-8") for c in (CONFIG, TLS_CONFIG)]
    assert blocks == [text[text.index("worker_processes") :] for text in shown]
