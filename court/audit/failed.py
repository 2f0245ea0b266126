"""What a failing check of the deep audit raises: the check's name and why."""

from __future__ import annotations


class Failed(Exception):
    """`version`: the record to blame when it is an earlier one than the record checked."""

    def __init__(self, check: str, reason: str, version: int | None = None) -> None:
        super().__init__(reason)
        self.check = check
        self.reason = reason
        self.version = version
