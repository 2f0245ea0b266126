"""The HTTP status of each refusal comes from one table in server/http/statuses.py: the
engine's errors and the service's carry a code and a sentence, never a status."""

from __future__ import annotations

import pytest

import server.http.api  # noqa: F401  # every error class of the server imported
from court.errors import (
    BadRecord,
    BadToken,
    Conflict,
    CorruptLog,
    CourtError,
    EngineDefect,
    NotAllowed,
    NotFound,
    UnknownGame,
)
from server.http.statuses import status_of
from server.notify.mail import AddressRefused
from server.notify.urls import WebhookRefused
from server.service.talk import TooFast


def every_refusal(kind: type[CourtError] = CourtError) -> list[type[CourtError]]:
    found = [kind]
    for sub in kind.__subclasses__():
        found += every_refusal(sub)
    return found


def test_no_refusal_class_carries_an_http_status() -> None:
    assert [k.__name__ for k in every_refusal() if "status" in vars(k)] == []


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (CourtError("not_your_turn", "."), 409),
        (NotAllowed("host_only", "."), 403),
        (BadRecord("bad_record", "."), 400),
        (NotFound("unknown_version", "."), 404),
        (UnknownGame("g"), 404),
        (CorruptLog("corrupt_log", "."), 409),
        (BadToken("bad_token", "."), 401),
        (EngineDefect(), 409),
        (Conflict("busy", "."), 409),
        (AddressRefused("bad_address", "."), 400),
        (WebhookRefused("bad_webhook", "."), 409),
        (TooFast("too_fast", "."), 429),
    ],
)
def test_each_refusal_has_the_status_it_always_had(error: CourtError, status: int) -> None:
    assert status_of(error) == status
