"""HTML pages of the court: the entry page and a game's page (the invite link points here)."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> str:
    return render_template("court/index.html")


@bp.get("/games/<game_id>")
def game(game_id: str) -> str:
    return render_template("court/game.html", game_id=game_id)
