"""The rules data of config/ as the server offers it. The map, roster and titles every profile
shares, and the profile RULES_PROFILE names, are read and checked once, at start-up: one that
cannot be used stops the server with its file and the reason (RulesDataError). The profiles are
read again at each look, so that one an operator adds or mends is offered without a restart;
a profile file that cannot be used is left out, with one log line naming it and the reason
for as long as that reason stands, and the others are offered as ever."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from config import rulesdata
from config.rulesdata import RulesDataError, load_profile, load_shared

log = logging.getLogger("small_council.rules")


class Profiles:
    def __init__(self, default: str = "default", config_dir: Path | None = None) -> None:
        """RulesDataError when the shared files or the `default` profile cannot be used."""
        self.config_dir = config_dir or rulesdata.CONFIG_DIR
        self.shared = load_shared(self.config_dir)
        self.default = default
        try:
            self.ruleset(default)
        except RulesDataError as exc:
            raise RulesDataError(
                f"RULES_PROFILE={default} names no profile the server can use: {exc}"
            ) from None
        self._told: frozenset[str] = frozenset()  # the refusals logged, while they stand
        self._guard = threading.Lock()

    def ruleset(self, name: str) -> dict[str, Any]:
        """The whole ruleset of the profile `name`; RulesDataError when it cannot be used."""
        return load_profile(name, self.shared, self.config_dir)

    def usable(self) -> dict[str, dict[str, Any]]:
        """Every profile that can be used, by name (sorted), with its ruleset."""
        found: dict[str, dict[str, Any]] = {}
        refused: list[str] = []
        for path in sorted((self.config_dir / "profiles").glob("*.toml")):
            if not path.is_file():
                continue
            try:
                found[path.stem] = self.ruleset(path.stem)
            except RulesDataError as exc:
                refused.append(_named(path, exc))
        self._tell(refused)
        return found

    def _tell(self, refused: list[str]) -> None:
        with self._guard:
            new = [reason for reason in refused if reason not in self._told]
            self._told = frozenset(refused)
        for reason in new:
            log.warning("rules profile left out: %s", reason)


def _named(path: Path, exc: RulesDataError) -> str:
    """The reason, led by the profile's file as the loader's own reasons are."""
    reason = str(exc)
    file = f"profiles/{path.name}"
    return reason if reason.startswith(file) else f"{file}: {reason}"
