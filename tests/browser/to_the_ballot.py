"""Playing a browser test's game to Stark's ballot: the villages of two regions and the
moment the North's election waits on Stark's marker."""

from __future__ import annotations

from typing import Any

STARK = 0
NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")
EAST = ("the-eyrie", "gulltown", "runestone", "riverrun", "the-twins")


def stark_to_vote(election: str) -> Any:
    def stop(view: dict[str, Any]) -> bool:
        now = view["election"]
        return bool(now and now["id"] == election and now["stage"] == "ballot") and (
            now["current"] == STARK
        )

    return stop
