"""The app factory registers every part of the HTTP API itself: every part a module declares,
each operation /openapi.json documents served by exactly one route, in every app made in the
process, and nothing under /api undocumented."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from flask import Flask

import server.http
from app import api_routes, create_app
from server.http.api import Routes, openapi_document

IGNORED_METHODS = {"HEAD", "OPTIONS"}  # Flask adds them to every rule


def served(app: Flask) -> list[tuple[str, str]]:
    """(path as the document writes it, method) of every route under /api, repeats kept."""
    return sorted(
        (re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule), method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in (rule.methods or set()) - IGNORED_METHODS
    )


def documented() -> list[tuple[str, str]]:
    paths = openapi_document(api_routes())["paths"]
    return sorted((path, method.upper()) for path, ops in paths.items() for method in ops)


def test_every_app_made_in_a_process_serves_each_documented_operation_once(
    tmp_path: Path,
) -> None:
    # Given two apps made one after the other in one process
    apps = [
        create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/{name}.db", "DEADLINES": False})
        for name in ("first", "second")
    ]
    try:
        # Then each serves every documented operation by one route, and nothing else under /api
        expected = documented()
        assert len(expected) > 60  # the catalogue's commands are among them
        for app in apps:
            assert served(app) == expected
    finally:
        for app in apps:
            app.extensions["court_store"].close()


def test_every_part_of_the_api_a_module_declares_is_registered() -> None:
    # Given every module of server/http and the parts of the API they declare
    declared = {
        found.blueprint.name
        for info in pkgutil.iter_modules(server.http.__path__)
        for found in vars(importlib.import_module(f"server.http.{info.name}")).values()
        if isinstance(found, Routes)
    }
    # Then the app factory registers each of them, and the commands' part besides
    registered = {routes.blueprint.name for routes in api_routes()}
    assert "court" in declared and "commands" not in declared
    assert registered == declared | {"commands"}
