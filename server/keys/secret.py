"""The instance secret: an HMAC-SHA256 key the database never holds. The server seals each
snapshot it keeps beside the log with it (server/service/replay.py) and reads back only the rows
whose seal it can remake, so a row written by anyone else (or under an earlier secret) is never
used."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from server.keys.files import KeyFileError, read_or_create, replace

# The shortest secret accepted, in characters: a new one is 64 hexadecimal digits (32 bytes).
MIN_LENGTH = 32


def new_secret() -> str:
    return secrets.token_hex(32)


@dataclass(frozen=True, slots=True)
class InstanceSecret:
    """The key, and an id of it that says which secret sealed a row without telling the key."""

    key: bytes = field(repr=False)

    @classmethod
    def random(cls) -> InstanceSecret:
        return cls(new_secret().encode())

    @classmethod
    def of(cls, text: str, origin: str) -> InstanceSecret:
        """The secret written as `text` (the file's content or the variable's value)."""
        text = text.strip()
        if len(text) < MIN_LENGTH:
            raise KeyFileError(
                f"{origin} must hold at least {MIN_LENGTH} characters (a new one: "
                "`python -c 'import secrets; print(secrets.token_hex(32))'`)"
            )
        return cls(text.encode())

    @property
    def key_id(self) -> str:
        return hmac.new(self.key, b"small-council key id", hashlib.sha256).hexdigest()[:16]

    def mac(self, message: bytes) -> str:
        return hmac.new(self.key, message, hashlib.sha256).hexdigest()

    def matches(self, message: bytes, mac: str | None) -> bool:
        return mac is not None and hmac.compare_digest(self.mac(message), mac)


def load_secret(value: str, path: Path) -> tuple[InstanceSecret, bool]:
    """The secret of INSTANCE_SECRET when set, else of the file at `path` (made on first use);
    and whether the file was made now."""
    if value:
        return InstanceSecret.of(value, "INSTANCE_SECRET"), False
    text, created = read_or_create(path, new_secret)
    return InstanceSecret.of(text, f"the instance secret file {path}"), created


def rotate_secret(path: Path) -> InstanceSecret:
    """A new secret in the file at `path`: the snapshots sealed under the old one are read no
    more, and are written anew as the server folds past their versions."""
    secret = InstanceSecret.of(new_secret(), "a new secret")
    replace(path, secret.key.decode())
    return secret
