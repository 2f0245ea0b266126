"""Schemathesis over the served OpenAPI document: every operation, fed generated requests that
fit the document and requests that break it, against a real app on its own SQLite file. No
answer may be a 5xx, every answer must be one the document declares (status, content type,
body schema), requests that break the document must be refused and requests that fit it must
not be refused as malformed.

Path parameters and the `Authorization` header are mostly drawn from real games at every stage
(lobby, decree step, cards phase, election) and from real tokens of each kind, so generated
requests reach the rules and not only the 404 of an unknown game. The run is derandomized
and bounded (about a minute)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from app import api_routes, create_app
from server.http.api import openapi_document
from tests.hostile.payloads import NAMED
from tests.hostile.tables import STAGES, Tables, heads, lay, vocabulary

DOC = openapi_document(api_routes())
schema = schemathesis.openapi.from_dict(DOC)

# Who sends a request: a kind of token (tests/hostile/tables.py); None keeps what schemathesis made.
WHO = ("none", "host", "master", "stark", "lannister", "tyrell", "left", "other_game", "bogus")
SEEDED: dict[str, Any] = {}
EXAMPLES = 65  # fuzzed requests per operation, on top of schemathesis's coverage phase


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    # Thousands of requests from one address: the shapes are tested here, the limits per
    # address in tests/server/http/test_rate_limits.py.
    folder = tmp_path_factory.mktemp("openapi")
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}/t.db", "RATE_LIMITS": False})
    SEEDED["tables"] = lay(app)
    SEEDED["names"] = vocabulary(app, SEEDED["tables"])
    yield app
    SEEDED.clear()
    app.extensions["court_store"].close()


def _named(value: Any) -> st.SearchStrategy[Any]:
    """A body with some of its id fields swapped for ids the court knows."""
    if isinstance(value, list):
        return st.tuples(*(_named(item) for item in value)).map(list)
    if not isinstance(value, dict):
        return st.just(value)
    names = SEEDED["names"]
    fields = {
        key: (
            st.sampled_from((item, *names[NAMED[key]]))
            if key in NAMED and isinstance(item, str)
            else _named(item)
        )
        for key, item in value.items()
    }
    return st.fixed_dictionaries(fields)


def _aimed(case: Any, stage: str | None, who: str | None, version: int, body: Any) -> Any:
    """The case sent to the game at `stage` by `who`; None keeps what was generated."""
    tables: Tables = SEEDED["tables"]
    if stage is not None and "game_id" in case.path_parameters:
        params = {**case.path_parameters, "game_id": tables.games[stage].id}
        if "version" in params:
            params["version"] = version
        case.path_parameters = params
    if who is not None:
        headers = {k: v for k, v in case.headers.items() if k.lower() != "authorization"}
        case.headers = {**headers, **tables.headers(stage or "cards", who)}
    if body != case.body:
        case.body = body
    return case


@schema.hook
def flatmap_case(context: Any, case: Any) -> st.SearchStrategy[Any]:
    """Aim most cases at a real game, with a real token and ids the court knows."""
    return st.builds(
        _aimed,
        st.just(case),
        st.sampled_from((*STAGES, *STAGES, None)),
        st.sampled_from((*WHO, None)),
        st.integers(1, 60),
        _named(case.body),
    )


def refusals_name_their_cause(ctx: Any, response: Any, case: Any) -> None:
    """A refusal carries a code and a message, and never says the server failed: with one
    client at a time nothing is `busy`, and nothing may be an `internal_error`."""
    if response.status_code < 400:
        return
    body = response.json()
    assert isinstance(body, dict), body
    assert isinstance(body.get("code"), str) and body["code"], body
    assert isinstance(body.get("message"), str) and body["message"], body
    assert body["code"] not in ("busy", "internal_error"), body


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_every_operation_answers_as_documented(case: Any, app: Flask) -> None:
    before = heads(app, SEEDED["tables"])

    response = case.call_and_validate(app=app, additional_checks=[refusals_name_their_cause])

    if response.status_code >= 400:
        assert heads(app, SEEDED["tables"]) == before, "a refused request changed a log"


def test_the_fuzzed_games_still_verify(app: Flask) -> None:
    """Whatever the fuzzing did to them, every seeded log still checks out end to end."""
    client = app.test_client()
    for stage, (version, head) in heads(app, SEEDED["tables"]).items():
        game = SEEDED["tables"].games[stage]
        verified = client.get(f"/api/games/{game.id}/verify").get_json()
        assert verified["ok"] is True, (stage, verified)
        assert (verified["records"], verified["head"]) == (version, head)


def test_the_fuzzed_document_is_the_one_the_server_serves(app: Flask) -> None:
    assert app.test_client().get("/openapi.json").get_json() == DOC
