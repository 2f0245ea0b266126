"""What a failing check of the deep audit raises: the check's name and why."""

from __future__ import annotations


class Failed(Exception):
    def __init__(self, check: str, reason: str) -> None:
        super().__init__(reason)
        self.check = check
        self.reason = reason
