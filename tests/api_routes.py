"""Every route of the API as the server documents it, with a body of the right shape for each:
the one list the hostile sweep, the unknown-game cases and the authorization matrix walk. It
is read off the OpenAPI document, which the routes and the message catalogue make, so a new
route or message is in every one of them without a word written in the tests.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from app import api_routes
from server.http.api import openapi_document

DOC = openapi_document(api_routes())
SCHEMAS = DOC["components"]["schemas"]
# (METHOD, /api/... path as the document writes it, the operation)
OPERATIONS: list[tuple[str, str, dict[str, Any]]] = [
    (method.upper(), path, operation)
    for path, operations in DOC["paths"].items()
    for method, operation in operations.items()
]
CREATE = "/api/games"
WEBHOOK = "/api/games/{game_id}/webhook"


def example(operation: dict[str, Any]) -> dict[str, Any] | None:
    """The example body the document shows for an operation, if it takes a body."""
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    found = body.get("example")
    return dict(found) if isinstance(found, dict) else None


# A body each route with a body accepts in the shape check, so that a hostile value in one
# field is the only thing wrong with a request: the example the document shows (a message's
# own, from its catalogue entry); a route that documents no body is sent none.
VALID_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    (method, path): example(operation) or {}
    for method, path, operation in OPERATIONS
    if "requestBody" in operation
}
# The webhook's documented example names a public server, which no test may look up: a
# receiver on this machine refuses the connection at once (where the settings allow it).
VALID_BODIES[("PUT", WEBHOOK)] = {"url": "http://127.0.0.1:9/hook"}


def body(method: str, path: str) -> dict[str, Any] | None:
    """The valid body of a route; None for a route that takes none."""
    return VALID_BODIES.get((method, path))


def openapi_rule(rule: str) -> str:
    """A Flask rule (`/games/<game_id>`, `<int:version>`) written as the document writes it."""
    parts = []
    for part in rule.split("/"):
        if part.startswith("<") and part.endswith(">"):
            part = "{" + part[1:-1].rpartition(":")[2] + "}"
        parts.append(part)
    return "/".join(parts)


def served(app: Flask) -> set[tuple[str, str]]:
    """(METHOD, path) of every API route the app's URL map serves."""
    return {
        (method, openapi_rule(rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
