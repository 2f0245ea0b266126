"""config/ as an operator left it: the default, a quick profile of his own, and profiles the
server refuses."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from config.rulesdata import CONFIG_DIR

# Each profile an operator might leave in config/profiles/, and the reason it is left out.
REFUSED = {
    # a number the court rules fixed, as an older version of them had it (R-4.6 [R])
    "old.toml": "profiles/old.toml: purchases.sept_cost 5 is not allowed: one of 4 (R-4.6 [R])",
    "bad.toml": "profiles/bad.toml: [players] must be a table",
    "Saturday Night.toml": "profiles/Saturday Night.toml: profile name 'Saturday Night' must "
    "match [a-z0-9_-]+",
    "broken.toml": "profiles/broken.toml: invalid TOML",
    "latin1.toml": "profiles/latin1.toml: not UTF-8 text: invalid continuation byte",
}


def profile_text(name: str, **changes: str) -> str:
    """The default profile under another name, with lines replaced (a regex each: its line)."""
    text = (CONFIG_DIR / "profiles" / "default.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^name = ".*"$', f'name = "{name}"', text)
    for pattern, line in changes.items():
        text, found = re.subn(rf"(?m)^{pattern}.*$", line, text)
        assert found == 1, pattern
    return text


def config_folder(root: Path) -> Path:
    """config/ as an operator left it: the default, a quick profile of his own that works,
    and the profiles of REFUSED."""
    folder = root / "config"
    (folder / "profiles").mkdir(parents=True)
    for file in ("map.toml", "roster.toml", "titles.toml", "profiles/default.toml"):
        shutil.copyfile(CONFIG_DIR / file, folder / file)
    profiles = folder / "profiles"
    (profiles / "quick.toml").write_text(
        profile_text("quick", **{"ballot = 0": "ballot = 60"}), encoding="utf-8"
    )
    (profiles / "old.toml").write_text(
        profile_text("old", **{"sept_cost = ": "sept_cost = 5"}), encoding="utf-8"
    )
    (profiles / "bad.toml").write_text(
        profile_text("bad", **{r"\[players\]": 'players = "six"\n[unused]'}), encoding="utf-8"
    )
    (profiles / "Saturday Night.toml").write_text(profile_text("x"), encoding="utf-8")
    (profiles / "broken.toml").write_text("name = 'broken'\n[players\n", encoding="utf-8")
    (profiles / "latin1.toml").write_bytes(
        profile_text("latin1", **{"description": "description = 'Fête'"}).encode("latin-1")
    )
    (profiles / "notes.toml").mkdir()  # a folder: no profile file at all
    return folder
