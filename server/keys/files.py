"""Key files: read, or made once with 0600 permissions (only the server's user reads them), in a
folder made 0700 (server/private.py).
Processes starting together on one folder end up with one file: each writes its own aside and
links it into place only if no file is there yet, then reads whichever won."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from config.settings import SettingError
from server.private import private_folder, warn_if_shared


class KeyFileError(SettingError):
    """A key file or variable the server cannot use; the message names it and says why (the
    server stops with it, as with any setting it cannot read)."""


def read_or_create(path: Path, make: Callable[[], str]) -> tuple[str, bool]:
    """The file's text (stripped), after writing `make()` into it if it did not exist; and
    whether this call created it."""
    created = False
    if not path.exists():
        created = _link_new(path, make())
    try:
        text = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyFileError(f"cannot read the key file {path}: {exc}") from None
    warn_if_shared(path)
    return text, created


def replace(path: Path, text: str) -> None:
    """Write `text` as the file's new content in one step (a reader sees the old or the new)."""
    private_folder(path.parent)
    aside = _aside(path, text)
    os.replace(aside, path)


def _link_new(path: Path, text: str) -> bool:
    private_folder(path.parent)
    aside = _aside(path, text)
    try:
        os.link(aside, path)
    except FileExistsError:
        return False  # another process made it first: its key is the one
    finally:
        os.unlink(aside)
    return True


def _aside(path: Path, text: str) -> str:
    """A new file beside `path` holding `text`, readable by its owner alone."""
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text.rstrip("\n") + "\n")
        out.flush()
        os.fsync(out.fileno())
    return name
