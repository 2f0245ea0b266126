"""A game's whole log as a server's export gives it, public parts."""

from __future__ import annotations

import json

from tests.scale.clients import HttpClient


def log_of(url: str, game_id: str) -> list[dict]:
    """The whole log, public parts, as the export gives it."""
    text = HttpClient(url).session.get(f"{url}/api/games/{game_id}/export", timeout=20).text
    return [json.loads(line) for line in text.splitlines() if line.strip()]
