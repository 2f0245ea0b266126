"""The HTTP plumbing shared by every blueprint: routes that document themselves, auth, errors.

`Routes.route` adds a Flask view to a module's blueprint and its OpenAPI operation from the
same schemas, so the document at /openapi.json cannot drift from the code. A route limited per
client address takes its token first, then the caller is authenticated where the route needs
a token, and only then is the body read and checked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Flask, current_app, jsonify, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, HTTPException

from court.errors import CourtError
from server.clients.addresses import client_address
from server.clients.limits import Limits, RateLimited
from server.http.schemas import ErrorSchema
from server.http.statuses import status_of
from server.messages.fields import capped
from server.messages.message import schema_of
from server.outages import Outage
from server.store.failures import DATABASE_ERRORS, log_failure, refusal

log = logging.getLogger("small_council.api")

TITLE = "Small Council"
VERSION = "1.0.0"
API_PREFIX = "/api"

ERRORS = {
    400: "Malformed request: the body or query has the wrong shape.",
    401: "Missing or unknown seat token.",
    403: "The seat or role may not do this.",
    404: "No such game or version.",
    409: "The court rules refuse this command now.",
    413: "The body is larger than any request of this API.",
    429: "Too many requests from this address; `Retry-After` says when to try again.",
    503: "The database cannot be reached or its disk is full (`database_unavailable`, "
    "`storage_full`); nothing was recorded, try again shortly.",
}


@dataclass
class Operation:
    rule: str
    method: str
    summary: str
    body: type[Schema] | None
    query: type[Schema] | None
    response: type[Schema] | None
    status: int
    auth: bool
    content_type: str
    limit: str | None = None
    example: dict[str, Any] | None = None
    sender: str = "anyone"
    optional_body: bool = False


class Routes:
    """One HTTP module's part of the API: a blueprint under /api whose routes document
    themselves. The app registers `blueprint`; /openapi.json lists `operations`."""

    def __init__(self, name: str, import_name: str) -> None:
        self.blueprint = Blueprint(name, import_name, url_prefix=API_PREFIX)
        self.operations: list[Operation] = []

    def route(
        self,
        rule: str,
        method: str,
        summary: str,
        *,
        body: type[Schema] | None = None,
        query: type[Schema] | None = None,
        response: type[Schema] | None = None,
        status: int = 200,
        auth: bool = False,
        content_type: str = "application/json",
        limit: str | None = None,
        guard: Callable[[str], Any] | None = None,
        example: dict[str, Any] | None = None,
        sender: str = "anyone",
        optional_body: bool = False,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """`limit`: the per-address limit taken first (server/clients/limits.py); `guard(game_id)`:
        the caller, as the view's `actor`, authenticated before the body is read; `example`:
        a body of the right shape and `sender` who may send it (anyone, a seat, the host),
        both shown in the document; `optional_body`: no body reads as `{}`."""
        op = Operation(
            API_PREFIX + rule,
            method,
            summary,
            body,
            query,
            response,
            status,
            auth,
            content_type,
            limit,
            example,
            sender,
            optional_body,
        )

        def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
            wrapped = _served(op, view, guard)
            self.blueprint.add_url_rule(rule, view_func=wrapped, methods=[method])
            self.operations.append(op)
            return view

        return decorator


def _served(
    op: Operation, view: Callable[..., Any], guard: Callable[[str], Any] | None
) -> Callable[..., Any]:
    """The view as Flask calls it: the limit, then the caller, then the checked request."""

    def wrapped(**kwargs: Any) -> Any:
        if op.limit is not None:
            limits().check(op.limit, client_address())
        if guard is not None:
            kwargs["actor"] = guard(kwargs["game_id"])
        result = view(**kwargs, **_request_fields(op))
        if op.response is not None and isinstance(result, dict):
            return jsonify(schema_of(op.response).dump(result)), op.status
        return result

    wrapped.__name__ = view.__name__
    return wrapped


def openapi_document(parts: Iterable[Routes]) -> dict[str, Any]:
    """The OpenAPI document of these parts of the API, their operations in order."""
    spec = APISpec(
        title=TITLE,
        version=VERSION,
        openapi_version="3.0.3",
        plugins=[MarshmallowPlugin()],
    )
    spec.components.security_scheme(
        "seatToken", {"type": "http", "scheme": "bearer", "description": "Seat or host token"}
    )
    spec.components.schema("Error", schema=ErrorSchema)
    paths: dict[str, dict[str, Any]] = {}
    for op in (op for part in parts for op in part.operations):
        path, params = _openapi_path(op.rule)
        paths.setdefault(path, {})[op.method.lower()] = _operation(op, params)
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()


def _request_fields(op: Operation) -> dict[str, Any]:
    """The checked body and query of the request, read only now: after the limit and the
    token."""
    found: dict[str, Any] = {}
    if op.body is not None:
        empty = op.optional_body and not request.get_data()
        found["body"] = schema_of(op.body).load({} if empty else _json_body())
    elif op.method in ("POST", "PUT", "PATCH"):
        _json_body(optional=True)
    if op.query is not None:
        found["query"] = schema_of(op.query).load(request.args)
    return found


def limits() -> Limits:
    found: Limits = current_app.extensions["limits"]
    return found


def _json_body(optional: bool = False) -> Any:
    if optional and not request.get_data():
        return {}
    if not request.is_json:
        raise ValidationError({"_body": ["Send a JSON object with Content-Type application/json."]})
    try:
        data = request.get_json()
    except (BadRequest, RecursionError):
        raise ValidationError({"_body": ["The body is not valid JSON."]}) from None
    if not isinstance(data, dict):
        raise ValidationError({"_body": ["The body must be a JSON object."]})
    if optional and data:
        raise ValidationError({"_body": ["This request takes no body."]})
    return data


def _openapi_path(rule: str) -> tuple[str, list[dict[str, Any]]]:
    params: list[dict[str, Any]] = []
    parts = []
    for part in rule.split("/"):
        if part.startswith("<") and part.endswith(">"):
            kind, _, name = part[1:-1].rpartition(":")
            schema = {"type": "integer", "minimum": 1} if kind == "int" else {"type": "string"}
            params.append({"in": "path", "name": name, "required": True, "schema": schema})
            parts.append("{" + name + "}")
        else:
            parts.append(part)
    return "/".join(parts), params


def _operation(op: Operation, params: list[dict[str, Any]]) -> dict[str, Any]:
    responses: dict[str, Any] = {}
    content: dict[str, dict[str, Any]]
    if op.response is not None:
        content = {op.content_type: {"schema": op.response}}
    else:
        content = {op.content_type: {"schema": {"type": "string"}}}
    responses[str(op.status)] = {"description": "Success", "content": content}
    codes = [400, 404]
    if op.method != "GET" or op.auth:
        codes += [401, 403, 409]
    if op.method != "GET":
        codes.append(413)
    if op.limit is not None:
        codes.append(429)
    codes.append(503)  # every route reads or writes the log
    for code in codes:
        responses[str(code)] = {
            "description": ERRORS[code],
            "content": {"application/json": {"schema": "Error"}},
        }
    if op.limit is not None:
        responses["429"]["headers"] = {
            "Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}
        }
    operation: dict[str, Any] = {
        "summary": op.summary,
        "parameters": params + ([{"in": "query", "schema": op.query}] if op.query else []),
        "responses": responses,
    }
    if op.body is not None:
        media: dict[str, Any] = {"schema": op.body}
        if op.example is not None:
            media["example"] = op.example
        required = not op.optional_body
        operation["requestBody"] = {"required": required, "content": {"application/json": media}}
    if op.auth or op.method != "GET":
        operation["security"] = [{"seatToken": []}, {}]
    # Who may send it, as far as a token tells: `anyone`, a `seat`, or the `host` (or the
    # game master, where the rules let him).
    operation["x-sender"] = op.sender
    return operation


def error_response(status: int, code: str, message: str, **extra: Any) -> tuple[Any, int]:
    return jsonify({"code": code, "message": message, **extra}), status


def install_error_handlers(app: Flask, database: Outage) -> None:
    """Map every failure to a JSON error with a code: one place for the whole server."""

    @app.errorhandler(CourtError)
    def _court_error(exc: CourtError) -> tuple[Any, int]:
        return error_response(status_of(exc), exc.code, exc.message)

    @app.errorhandler(ValidationError)
    def _shape_error(exc: ValidationError) -> tuple[Any, int]:
        messages = exc.messages if isinstance(exc.messages, dict) else {"_body": exc.messages}
        return error_response(
            400,
            "bad_request",
            "The request has the wrong shape; see fields.",
            fields=capped(messages),
        )

    @app.errorhandler(RateLimited)
    def _rate_limited(exc: RateLimited) -> tuple[Any, int]:
        body, status = error_response(429, exc.code, exc.message)
        body.headers["Retry-After"] = str(exc.retry_after)
        return body, status

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> tuple[Any, int]:
        status = exc.code or 500
        code = (exc.name or "error").lower().replace(" ", "_")
        body, status = error_response(status, code, exc.description or exc.name)
        # Keep what the exception says about the request, e.g. a 405's `Allow` (RFC 9110).
        for name, value in exc.get_headers():
            if name.lower() != "content-type":
                body.headers[name] = value
        return body, status

    # Unlike a refusal by the rules, a database failure may simply be tried again: 503.
    def _database_failed(exc: Exception) -> tuple[Any, int]:
        log_failure(log, f"on {request.method} {request.path}", exc, database)
        return error_response(503, *refusal(exc))

    for kind in DATABASE_ERRORS:
        app.register_error_handler(kind, _database_failed)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> tuple[Any, int]:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "internal_error", "Something went wrong on the server.")
