"""How one notice is posted: to the address that was checked (a name answering otherwise the
second time reaches nothing), with the URL's host in the Host header and in TLS (the server
name sent and the certificate checked), no redirect followed, and the whole post bounded by
one deadline however slowly the receiver answers."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.keys import InstanceSecret as Secret
from server.notify.delivery import DeliveryFailed, post
from server.notify.outbox import Notifier
from server.notify.sender import OutboxSender, SendSettings
from server.notify.sends import SendGate
from server.notify.urls import Target, UrlPolicy, pin
from server.store.notices import Notice, NoticeStore
from server.store.sends import SendLedger
from server.store.sql import SqlEventStore
from tests.databases import migrated
from tests.server.notify.certificates import Authority
from tests.server.notify.receiver import dripping, receiving

PUBLIC = "93.184.216.34"  # a public address: the check lets it pass
LOCAL = UrlPolicy(allow_http=True, allow_private=True)
HTTP_PUBLIC_ONLY = UrlPolicy(allow_http=True)
QUICK = SendSettings(timeout=1.0, backoff=0.05, poll=0.05)


@pytest.fixture
def notices(tmp_path: Path) -> Iterator[NoticeStore]:
    store = SqlEventStore(migrated(tmp_path / "d.db"))
    try:
        yield store.notices
    finally:
        store.close()


class Names:
    """socket.getaddrinfo for the test's own host names, answering each lookup of a name with
    the next of its answers (the last one again once they run out); every other name is
    resolved as before. `connected` lists where socket.create_connection was asked to go;
    a connection to PUBLIC is refused there (the test reaches no real host)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, **answers: list[str]) -> None:
        self.answers = {host.replace("_", "."): list(a) for host, a in answers.items()}
        self.lookups: list[str] = []
        self.connected: list[tuple[str, int]] = []
        self._getaddrinfo = socket.getaddrinfo
        self._connect = socket.create_connection
        monkeypatch.setattr(socket, "getaddrinfo", self.getaddrinfo)
        monkeypatch.setattr(socket, "create_connection", self.create_connection)

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in self.answers:
            return self._getaddrinfo(host, port, *args, **kwargs)
        self.lookups.append(host)
        answers = self.answers[host]
        address = answers.pop(0) if len(answers) > 1 else answers[0]
        if address == "":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(port or 0)))]

    def create_connection(self, address: Any, *args: Any, **kwargs: Any) -> Any:
        self.connected.append((address[0], address[1]))
        if address[0] == PUBLIC:
            raise ConnectionRefusedError(111, "Connection refused")
        return self._connect(address, *args, **kwargs)


def send_one(notices: NoticeStore, url: str, policy: UrlPolicy) -> dict[str, Any]:
    """Post one notice of game g to `url` through the outbox; its row after the attempt."""
    notices.set_webhook("g", url, 0)
    notices.enqueue([Notice("g", "turn:1", "It is Ann's turn.")], 0)
    OutboxSender(notices, policy, QUICK).send_due()
    [row] = notices.rows("g")
    return row


def test_a_name_that_answers_a_public_address_then_this_machine_reaches_nothing(
    notices: NoticeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiving() as receiver:
        names = Names(monkeypatch, rebind_example=[PUBLIC, "127.0.0.1"])
        row = send_one(notices, f"http://rebind.example:{receiver.port}/hook", HTTP_PUBLIC_ONLY)
    assert receiver.posts == []
    assert names.lookups == ["rebind.example"]  # resolved once, to be checked
    assert names.connected == [(PUBLIC, receiver.port)]  # and connected to what was checked
    assert row["state"] == "pending" and "cannot be reached" in row["last_error"]


def test_the_post_goes_to_the_checked_address_with_the_url_s_host_in_its_host_header(
    notices: NoticeStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiving() as receiver:
        # a second lookup would find nothing: only the address checked can be used
        names = Names(monkeypatch, hooks_example=["127.0.0.1", ""])
        row = send_one(notices, f"http://hooks.example:{receiver.port}/hook", LOCAL)
    assert row["state"] == "sent", row
    assert names.lookups == ["hooks.example"]
    assert receiver.hosts == [f"hooks.example:{receiver.port}"]
    assert receiver.paths == ["/hook"]


def test_a_receiver_dripping_its_answer_is_cut_off_at_the_deadline(
    notices: NoticeStore,
) -> None:
    notifier = Notifier(
        notices, LOCAL, gate=SendGate(SendLedger(notices.engine), Secret.random().mac)
    )
    with dripping(every=0.3, lasting=8.0) as receiver:
        began = time.monotonic()
        with pytest.raises(DeliveryFailed) as failed:
            notifier.send_test("g", receiver.url, "Game g", 1.0)
        took = time.monotonic() - began
    assert took < 1.8, f"the post took {took:.1f} s"
    assert failed.value.reason == "the webhook did not answer within 1 s"


def hooks_example(port: int, scheme: str = "https") -> Target:
    """The URL of a receiver on this machine under the name hooks.example, checked."""
    url = f"{scheme}://hooks.example:{port}/hook"
    return pin(url, LOCAL, lambda host, _port: ["127.0.0.1"] if host == "hooks.example" else [])


def test_tls_names_the_url_s_host_and_checks_the_certificate_against_it(
    local_authority: Authority,
) -> None:
    with receiving(tls=local_authority.server("DNS:hooks.example")) as receiver:
        post(hooks_example(receiver.port), "It is Ann's turn.", 5.0, local_authority.client())
    assert receiver.server_names == ["hooks.example"]  # SNI, though 127.0.0.1 was connected to
    assert receiver.hosts == [f"hooks.example:{receiver.port}"]
    assert receiver.texts() == ["It is Ann's turn."]


@pytest.mark.parametrize("names", ["DNS:elsewhere.example", "IP:127.0.0.1"])
def test_a_certificate_for_another_name_or_for_the_address_connected_to_is_refused(
    local_authority: Authority, names: str
) -> None:
    client = local_authority.client()
    with (
        receiving(tls=local_authority.server(names)) as receiver,
        pytest.raises(DeliveryFailed) as failed,
    ):
        post(hooks_example(receiver.port), "It is Ann's turn.", 5.0, client)
    assert failed.value.reason == "the webhook's certificate is not valid for its host"
    assert receiver.posts == []


def test_a_certificate_no_authority_of_the_system_signed_is_refused(
    local_authority: Authority,
) -> None:
    server = local_authority.server("DNS:hooks.example")
    with receiving(tls=server) as receiver, pytest.raises(DeliveryFailed) as failed:
        post(hooks_example(receiver.port), "It is Ann's turn.", 5.0)  # the system's authorities
    assert failed.value.reason == "the webhook's certificate is not valid for its host"
    assert receiver.posts == []


def test_a_receiver_that_never_ends_the_tls_handshake_is_cut_off_at_the_deadline(
    local_authority: Authority,
) -> None:
    with dripping() as silent:  # it waits for an HTTP head that TLS never sends
        began = time.monotonic()
        with pytest.raises(DeliveryFailed) as failed:
            post(hooks_example(silent.port), "It is Ann's turn.", 1.0, local_authority.client())
        took = time.monotonic() - began
    assert took < 1.8 and failed.value.reason == "the webhook did not answer within 1 s"


def test_a_redirect_is_not_followed() -> None:
    with (
        receiving() as elsewhere,
        receiving(redirect=elsewhere.url) as receiver,
        pytest.raises(DeliveryFailed) as failed,
    ):
        post(hooks_example(receiver.port, "http"), "It is Ann's turn.", 5.0)
    assert (failed.value.reason, failed.value.final) == ("the webhook answered 307", True)
    assert len(receiver.posts) == 1 and elsewhere.posts == []
