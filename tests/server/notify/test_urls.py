"""Which webhook URLs a host may set: https, a length cap, and no host that resolves into this
machine or a private network unless the operator allows it (SSRF)."""

from __future__ import annotations

import pytest

from server.notify.urls import URL_MAX, UrlPolicy, WebhookRefused, check_url

DISCORD = "https://discord.com/api/webhooks/123/abc"
STRICT = UrlPolicy()
LOCAL = UrlPolicy(allow_http=True, allow_private=True)


def resolving(*addresses: str):
    return lambda _host, _port: list(addresses)


def test_a_discord_webhook_on_a_public_address_is_taken() -> None:
    assert check_url(f"  {DISCORD} ", STRICT, resolving("162.159.135.232")) == DISCORD


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://hooks.example.org/x", "webhook_scheme"),
        ("ftp://hooks.example.org/x", "webhook_scheme"),
        ("javascript:alert(1)", "webhook_scheme"),
        ("https:///no-host", "webhook_host"),
        ("https://user:pw@hooks.example.org/x", "webhook_host"),
        ("https://hooks.example.org:99999/x", "webhook_host"),
        ("https://hooks.example.org/" + "x" * URL_MAX, "webhook_too_long"),
    ],
)
def test_a_url_that_is_not_an_https_webhook_is_refused(url: str, code: str) -> None:
    with pytest.raises(WebhookRefused) as refused:
        check_url(url, STRICT, resolving("162.159.135.232"))
    assert refused.value.code == code and url not in refused.value.message


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.0.0.5",
        "192.168.1.1",
        "169.254.169.254",
        "::1",
        "::ffff:127.0.0.1",
        "fc00::1",
    ],
)
def test_a_host_resolving_to_this_machine_or_a_private_network_is_refused(address: str) -> None:
    with pytest.raises(WebhookRefused) as refused:
        check_url(DISCORD, STRICT, resolving("162.159.135.232", address))
    assert refused.value.code == "webhook_private"


def test_the_operator_may_allow_http_and_local_receivers() -> None:
    url = "http://127.0.0.1:8080/hook"
    assert check_url(url, LOCAL, resolving("127.0.0.1")) == url


def test_a_host_that_cannot_be_resolved_is_refused() -> None:
    def fails(_host: str, _port: int) -> list[str]:
        raise OSError("no such host")

    with pytest.raises(WebhookRefused) as refused:
        check_url(DISCORD, STRICT, fails)
    assert refused.value.code == "webhook_host"


def test_the_api_refuses_a_loopback_webhook_by_default(tmp_path) -> None:
    from app import create_app
    from tests.databases import migrated
    from tests.server.http.court_client import lobby_game

    app = create_app({"DATABASE_URL": migrated(tmp_path / "u.db"), "RATE_LIMITS": False})
    try:
        client = app.test_client()
        game = lobby_game(client)
        path = f"/api/games/{game.id}/webhook"
        for url, code in (
            ("http://127.0.0.1:1/h", "webhook_scheme"),
            ("https://127.0.0.1:1/h", "webhook_private"),
            ("https://localhost/h", "webhook_private"),
        ):
            answer = client.put(path, json={"url": url}, headers=game.host)
            assert (answer.status_code, answer.get_json()["code"]) == (409, code)
        too_long = client.put(
            path, json={"url": "https://a.example/" + "x" * 500}, headers=game.host
        )
        assert too_long.status_code == 400 and "url" in too_long.get_json()["fields"]
        assert client.get(path, headers=game.host).get_json()["url"] is None
    finally:
        app.extensions["court_store"].close()
