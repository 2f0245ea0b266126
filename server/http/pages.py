"""HTML pages of the court (the lobby, a game's table, its history) and the Socket.IO client
they load, served from the npm package that `make` installs into node_modules/."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, send_from_directory, url_for

from court.errors import CourtError, NotFound
from server.http.rules_page import rules_html
from server.messages.labels import LABELS
from server.store.failures import DATABASE_ERRORS

bp = Blueprint("pages", __name__)

ROOT = Path(__file__).resolve().parents[2]
# Only these files of the package are served, never the rest of node_modules.
NOBLE_HASHES = ROOT / "node_modules" / "@noble" / "hashes"
JSON_PATCH = ROOT / "node_modules" / "fast-json-patch" / "module"
NOBLE_CURVES = ROOT / "node_modules" / "@noble" / "curves"
# The modules Ed25519 of @noble/curves imports (its `ed25519.js`, relative imports only once
# its imports of @noble/hashes are pointed at /vendor/noble-hashes/: `_browser_imports`).
CURVES = (
    "ed25519.js",
    "utils.js",
    *(
        f"abstract/{name}.js"
        for name in (
            "curve",
            "edwards",
            "fft",
            "frost",
            "hash-to-curve",
            "modular",
            "montgomery",
            "oprf",
        )
    ),
)
# Browser modules served from node_modules (no CDN): the Socket.IO client; SHA-256 and Ed25519
# for a page that WebCrypto is not given to (plain http away from this machine) or that has no
# Ed25519 in it, to check the record and the server's signatures; the JSON Patch applier
# that brings the page's court view up to each push; and idiomorph, which draws a panel again
# keeping the nodes the player is using (static/lib/morph.js).
VENDOR = {
    "socket.io.esm.min.js": ROOT / "node_modules" / "socket.io-client" / "dist",
    "socket.io.esm.min.js.map": ROOT / "node_modules" / "socket.io-client" / "dist",
    **{
        f"noble-hashes/{name}": NOBLE_HASHES
        for name in ("sha2.js", "_md.js", "_u64.js", "utils.js")
    },
    **{f"fast-json-patch/{name}": JSON_PATCH for name in ("core.mjs", "helpers.mjs")},
    "idiomorph.esm.js": ROOT / "node_modules" / "idiomorph" / "dist",
    **{f"noble-curves/{name}": (NOBLE_CURVES / name).parent for name in CURVES},
}


@bp.get("/")
def index() -> str:
    return render_template("court/index.html")


@bp.get("/games/<game_id>")
def game(game_id: str) -> str:
    """The court page, with what it calls each move (it reads them from its script's
    `data-labels`: the Content-Security-Policy allows no inline script)."""
    return render_template("court/game.html", game_id=game_id, name=_name(game_id), labels=LABELS)


@bp.get("/games/<game_id>/history")
def history(game_id: str) -> str:
    return render_template("court/history.html", game_id=game_id, name=_name(game_id))


def _name(game_id: str) -> str | None:
    """The game's name for the page's first paint (the page shows it live after); none for
    a game that cannot be read now: the page itself tells why, as before names."""
    unreadable: tuple[type[Exception], ...] = (CourtError, *DATABASE_ERRORS)
    try:
        name: str | None = current_app.extensions["court"].current(game_id).state.name
    except unreadable:
        return None
    return name


@bp.get("/key")
def key() -> str:
    """The page a person's key opens (the key rides in the fragment, which no server sees)."""
    return render_template("court/key.html")


def key_url(secret: str) -> str:
    """A person's key as a link, under PUBLIC_URL as the invites are."""
    public: str = current_app.config["PUBLIC_URL"]
    page = url_for("pages.key", _external=not public)
    return f"{public + page if public else page}#{secret}"


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
    if folder.is_relative_to(NOBLE_CURVES):
        response = Response(_browser_imports((folder / name).read_text(encoding="utf-8")))
        response.cache_control.max_age = 3600
    else:
        response = send_from_directory(folder, name, max_age=3600)
    if name.endswith((".js", ".mjs")):
        response.mimetype = "text/javascript"
    return response


def _browser_imports(text: str) -> str:
    """A module of @noble/curves whose imports of @noble/hashes a browser resolves: a page
    loads no import map (the Content-Security-Policy allows no inline script)."""
    return text.replace("from '@noble/hashes/", "from '/vendor/noble-hashes/")
