"""The server's Ed25519 signing key, kept outside the database, and the checkpoints it signs.

A checkpoint `{game_id, version, hash, key_id, signature}` says that the game's log stood at
`version` ending on `hash`: the signature (Ed25519, base64) covers the UTF-8 bytes of
`small-council checkpoint\\n{game_id}\\n{version}\\n{hash}`. A player who keeps checkpoints holds
the server to the log it showed (`flask court verify GAME --witness FILE`). Keys are named by
`key_id`, the first 16 hexadecimal digits of the SHA-256 of the raw 32-byte public key; keys of
before a rotation stay listed, so that checkpoints signed with them still verify.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from nacl.signing import SigningKey

from server.keys.files import KeyFileError, read_or_create, replace

ALGORITHM = "Ed25519"
PREFIX = "small-council checkpoint"
TALK_PREFIX = "small-council talk"
# Checkpoints signed lately, kept: a push and every welcome of the same head sign it once.
CACHE_SIZE = 4096


def message(game_id: str, version: int, hash_: str) -> bytes:
    """The bytes a checkpoint's signature covers."""
    return f"{PREFIX}\n{game_id}\n{version}\n{hash_}".encode()


def talk_message(game_id: str, channel: str, number: int, hash_: str) -> bytes:
    """The bytes a talk line's signature covers: its channel, number and hash (court/talk.py)."""
    return f"{TALK_PREFIX}\n{game_id}\n{channel}\n{number}\n{hash_}".encode()


def key_id_of(public: bytes) -> str:
    return hashlib.sha256(public).hexdigest()[:16]


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def parse_public(text: str, origin: str) -> bytes:
    """A public key written in base64 (or 64 hexadecimal digits) as its 32 raw bytes."""
    raw = _decode(text.strip())
    if raw is None or len(raw) != 32:
        raise KeyFileError(f"{origin}: {text.strip()[:60]!r} is not a base64 Ed25519 public key")
    return raw


def signed_by(public: bytes, checkpoint: dict[str, Any]) -> bool:
    """Whether the checkpoint's signature verifies with this public key."""
    body = message(str(checkpoint["game_id"]), int(checkpoint["version"]), str(checkpoint["hash"]))
    return verifies(public, str(checkpoint.get("signature", "")), body)


def verifies(public: bytes, signature: str, body: bytes) -> bool:
    """Whether `signature` (base64) is this public key's Ed25519 signature of `body`."""
    raw = _decode(signature)
    if raw is None:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(raw, body)
    except (InvalidSignature, ValueError):
        return False
    return True


def _decode(text: str) -> bytes | None:
    try:
        if len(text) == 64:
            return bytes.fromhex(text)
        return base64.b64decode(text, validate=True)
    except (ValueError, binascii.Error):
        return None


class SigningKeys:
    """The current private key and the public keys of the keys before it (by key id)."""

    def __init__(self, private: Ed25519PrivateKey, retired: Iterable[bytes] = ()) -> None:
        self._private = private
        # The same key through libsodium, which signs in two thirds of OpenSSL's time: every
        # push signs its checkpoint (Ed25519 signatures are deterministic, so they are alike).
        seed = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        self._signer = SigningKey(seed)
        self.public = raw_public(private.public_key())
        self.key_id = key_id_of(self.public)
        self.retired = {key_id_of(raw): raw for raw in retired if raw != self.public}
        self._signed: OrderedDict[tuple[str, int, str], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def random(cls) -> SigningKeys:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def of(cls, text: str, origin: str, retired: Iterable[bytes] = ()) -> SigningKeys:
        """The keys whose private key is written as `text`: base64 of its 32 raw bytes."""
        raw = _decode(text.strip())
        if raw is None or len(raw) != 32:
            raise KeyFileError(f"{origin} must hold a base64 Ed25519 private key (32 bytes)")
        return cls(Ed25519PrivateKey.from_private_bytes(raw), retired)

    def text(self) -> str:
        """The private key as the key file and SIGNING_KEY write it."""
        raw = self._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return b64(raw)

    def checkpoint(self, game_id: str, version: int, hash_: str) -> dict[str, Any]:
        """The signed checkpoint of the game's log at `version`, ending on `hash_`."""
        key = (game_id, version, hash_)
        with self._lock:
            found = self._signed.get(key)
            if found is not None:
                self._signed.move_to_end(key)
                return found
        signature = self.sign(message(game_id, version, hash_))
        found = {
            "game_id": game_id,
            "version": version,
            "hash": hash_,
            "key_id": self.key_id,
            "signature": signature,
        }
        with self._lock:
            self._signed[key] = found
            while len(self._signed) > CACHE_SIZE:
                self._signed.popitem(last=False)
        return found

    def sign(self, body: bytes) -> str:
        """This key's Ed25519 signature of `body`, base64."""
        return b64(self._signer.sign(body).signature)

    def verifies(self, signature: str, body: bytes) -> bool:
        """Whether `signature` is the current key's or a retired key's signature of `body`."""
        return any(verifies(k, signature, body) for k in (self.public, *self.retired.values()))

    def public_key(self, key_id: str) -> bytes | None:
        """The public key of that id: the current one's or a retired one's."""
        return self.public if key_id == self.key_id else self.retired.get(key_id)

    def document(self) -> dict[str, Any]:
        """What GET /api/signing-key answers: the current key, and every key still listed."""
        listed = [(self.key_id, self.public, True)]
        listed += [(kid, raw, False) for kid, raw in self.retired.items()]
        return {
            "algorithm": ALGORITHM,
            "key_id": self.key_id,
            "public_key": b64(self.public),
            "message": PREFIX + "\n{game_id}\n{version}\n{hash}",
            "keys": [
                {"key_id": kid, "public_key": b64(raw), "current": current}
                for kid, raw, current in listed
            ],
        }


def retired_path(path: Path) -> Path:
    """The file of the public keys retired by `rotate_signing`, beside the key file."""
    return path.with_name(path.name + ".retired")


def load_signing(value: str, retired: str, path: Path) -> tuple[SigningKeys, bool]:
    """The keys of SIGNING_KEY when set, else of the file at `path` (made on first use), with
    the public keys of SIGNING_RETIRED_KEYS and of the retired file beside the key file; and
    whether the key file was made now."""
    old = [parse_public(k, "SIGNING_RETIRED_KEYS") for k in retired.replace(",", " ").split()]
    listed = retired_path(path)
    if listed.exists():
        lines = listed.read_text(encoding="utf-8").splitlines()
        keys = (line.split("#")[0] for line in lines)
        old += [parse_public(k, str(listed)) for k in keys if k.strip()]
    if value:
        return SigningKeys.of(value, "SIGNING_KEY", old), False
    text, created = read_or_create(path, lambda: SigningKeys.random().text())
    return SigningKeys.of(text, f"the signing key file {path}", old), created


def rotate_signing(path: Path, now: str) -> tuple[SigningKeys, SigningKeys]:
    """A new key in the file at `path`; the old one's public key is added to the retired file
    first, so that checkpoints signed with it still verify. The old keys and the new."""
    old, _ = load_signing("", "", path)
    listed = retired_path(path)
    before = listed.read_text(encoding="utf-8") if listed.exists() else ""
    entry = f"{b64(old.public)}  # {old.key_id}, retired {now}\n"
    replace(listed, before + entry)
    new = SigningKeys(Ed25519PrivateKey.generate(), [*old.retired.values(), old.public])
    replace(path, new.text())
    return old, new
