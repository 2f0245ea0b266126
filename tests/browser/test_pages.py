"""The pages and the Socket.IO client they load are served by Flask itself: no CDN, and only
the client's own file out of node_modules (these need no browser)."""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from server.http.pages import CURVES, VENDOR
from tests.databases import migrated

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@pytest.fixture
def client(tmp_path: Path) -> FlaskClient:
    app: Flask = create_app({"DATABASE_URL": migrated(tmp_path / "pages.db")})
    return app.test_client()


@pytest.mark.parametrize("path", ["/", "/games/abc123", "/games/abc123/history"])
def test_every_page_is_served_and_loads_only_local_scripts(client: FlaskClient, path: str):
    response = client.get(path)

    assert response.status_code == 200
    page = response.get_data(as_text=True)
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(not s.startswith(("http:", "https:", "//")) for s in sources)


def test_no_template_or_script_names_a_cdn() -> None:
    files = [*TEMPLATES.rglob("*.html"), *(TEMPLATES.parent / "static").rglob("*.js")]
    for path in files:
        assert not re.search(r"https?://", path.read_text(encoding="utf-8")), path


def test_the_socket_io_client_is_served_from_the_npm_package(client: FlaskClient) -> None:
    installed = VENDOR["socket.io.esm.min.js"] / "socket.io.esm.min.js"
    if not installed.is_file():
        if os.environ.get("CI"):
            pytest.fail("node_modules has no socket.io-client: make test runs npm ci first")
        pytest.skip("socket.io-client is not installed (make run / make test install it)")

    response = client.get("/vendor/socket.io.esm.min.js")

    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.data == installed.read_bytes()


@pytest.mark.parametrize(
    ("package", "name"),
    [("@noble/hashes", f"noble-hashes/{n}") for n in ("sha2.js", "_md.js", "_u64.js", "utils.js")]
    + [("fast-json-patch", f"fast-json-patch/{n}") for n in ("core.mjs", "helpers.mjs")]
    + [("idiomorph", "idiomorph.esm.js")],
)
def test_the_witness_patch_and_morph_modules_are_served_from_their_npm_packages(
    client: FlaskClient, package: str, name: str
) -> None:
    installed = VENDOR[name] / name.rpartition("/")[2]
    if not installed.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"node_modules has no {package}: make test runs npm ci first")
        pytest.skip(f"{package} is not installed (make run / make test install it)")

    response = client.get(f"/vendor/{name}")

    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.data == installed.read_bytes()


@pytest.mark.parametrize("name", [f"noble-curves/{n}" for n in CURVES])
def test_ed25519_is_served_from_its_npm_package_importing_only_served_modules(
    client: FlaskClient, name: str
) -> None:
    installed = VENDOR[name] / name.rpartition("/")[2]
    if not installed.is_file():
        if os.environ.get("CI"):
            pytest.fail("node_modules has no @noble/curves: make test runs npm ci first")
        pytest.skip("@noble/curves is not installed (make run / make test install it)")

    response = client.get(f"/vendor/{name}")

    assert response.status_code == 200 and response.mimetype == "text/javascript"
    text = response.get_data(as_text=True)
    assert text == installed.read_text().replace("'@noble/hashes/", "'/vendor/noble-hashes/")
    # every module it imports is one this route serves
    for target in re.findall(r"^(?:import|export)[^;]*? from ['\"]([^'\"]+)['\"]", text, re.M):
        served = target.removeprefix("/vendor/") if target.startswith("/vendor/") else None
        relative = str(PurePosixPath(name).parent / target) if target.startswith(".") else None
        assert (served or os.path.normpath(relative or "")) in VENDOR, (name, target)


@pytest.mark.parametrize(
    "name",
    [
        "noble-curves/package.json",
        "noble-curves/abstract/bls.js",
        "package.json",
        "fast-json-patch/duplex.mjs",
        "fast-json-patch/../index.js",
        "..%2Fpackage.json",
        "debug.js",
        "socket.io.js",
        "noble-hashes/package.json",
        "noble-hashes/../../package.json",
        "noble-hashes/sha3.js",
        "idiomorph.js",
        "idiomorph-htmx.js",
    ],
)
def test_nothing_else_of_node_modules_is_served(client: FlaskClient, name: str) -> None:
    response = client.get(f"/vendor/{name}")

    assert response.status_code == 404
    assert response.get_json()["code"] in ("client_missing", "not_found")
