"""HTML pages of the court (the lobby, a game's table, its history) and the Socket.IO client
they load, served from the npm package that `make` installs into node_modules/."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, send_from_directory, url_for

from court.errors import NotFound
from server.http.rules_page import rules_html

bp = Blueprint("pages", __name__)

ROOT = Path(__file__).resolve().parents[2]
# Only these files of the package are served, never the rest of node_modules.
NOBLE_HASHES = ROOT / "node_modules" / "@noble" / "hashes"
JSON_PATCH = ROOT / "node_modules" / "fast-json-patch" / "module"
# Browser modules served from node_modules (no CDN): the Socket.IO client, and SHA-256 for a
# page that WebCrypto is not given to (plain http away from this machine) to check the record,
# and the JSON Patch applier that brings the page's court view up to each push.
VENDOR = {
    "socket.io.esm.min.js": ROOT / "node_modules" / "socket.io-client" / "dist",
    "socket.io.esm.min.js.map": ROOT / "node_modules" / "socket.io-client" / "dist",
    **{
        f"noble-hashes/{name}": NOBLE_HASHES
        for name in ("sha2.js", "_md.js", "_u64.js", "utils.js")
    },
    **{f"fast-json-patch/{name}": JSON_PATCH for name in ("core.mjs", "helpers.mjs")},
}


@bp.get("/")
def index() -> str:
    return render_template("court/index.html")


@bp.get("/games/<game_id>")
def game(game_id: str) -> str:
    return render_template("court/game.html", game_id=game_id)


@bp.get("/games/<game_id>/history")
def history(game_id: str) -> str:
    return render_template("court/history.html", game_id=game_id)


@bp.get("/rules")
def rules() -> str:
    return render_template("court/rules.html", rules=rules_html())


def game_url(game_id: str) -> str:
    """The address of a game's page, as invites give it: under PUBLIC_URL when it is set,
    never under a Host header a client chose; else under the request's own address."""
    public: str = current_app.config["PUBLIC_URL"]
    if not public:
        return url_for("pages.game", game_id=game_id, _external=True)
    return public + url_for("pages.game", game_id=game_id)


@bp.get("/vendor/<path:name>")
def vendor(name: str) -> Response:
    folder = VENDOR.get(name)
    name = name.rpartition("/")[2]
    if folder is None or not (folder / name).is_file():
        raise NotFound(
            "client_missing",
            f"{name} is not installed; run `make run`, which installs it with npm ci.",
        )
    response = send_from_directory(folder, name, max_age=3600)
    if name.endswith((".js", ".mjs")):
        response.mimetype = "text/javascript"
    return response
