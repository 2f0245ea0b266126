"""Files and folders only the server's own user may open: the instance folder (0700), the SQLite
database, which holds whispers, e-mail addresses and webhook URLs, with the write-ahead log and
shared memory SQLite makes beside it in the database's own mode (0600), and the key files.
Each is made so when it is made, whatever the process's umask; one already there keeps its
mode, and is said to the operator when others may read it."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger("small_council.files")

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def private_folder(path: Path) -> None:
    """The folder at `path`, made 0700 if it is missing (its missing parents as the umask
    makes them)."""
    if path.is_dir():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.mkdir(mode=FOLDER_MODE)
    except FileExistsError:
        return  # another process made it at the same moment
    os.chmod(path, FOLDER_MODE)  # mkdir's mode passes through the umask


def private_file(path: Path) -> bool:
    """Make `path` an empty file only its owner reads and writes, if it is missing and its
    folder is there; whether this call made it."""
    if path.exists() or not path.parent.is_dir():
        return False
    try:
        made = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    os.close(made)
    return True


def open_private(path: Path, *, append: bool = False) -> int:
    """A descriptor of `path` for writing, the file made 0600 if it is missing (emptied
    unless `append`)."""
    flags = os.O_RDWR | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    return os.open(path, flags, FILE_MODE)


def warn_if_shared(path: Path) -> None:
    """Log a warning when users other than the owner may read or enter `path`."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if mode & 0o077:
        wanted = FOLDER_MODE if path.is_dir() else FILE_MODE
        log.warning("%s can be read by other users (mode %o): chmod %o it", path, mode, wanted)
