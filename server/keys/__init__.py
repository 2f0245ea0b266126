"""The server's own keys, kept outside the database: the instance secret that seals the snapshots
beside the log (secret.py), and the signing key of the checkpoints pages keep (signing.py)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from config.settings import Settings
from server.keys.files import KeyFileError
from server.keys.secret import InstanceSecret, load_secret
from server.keys.signing import SigningKeys, load_signing

__all__ = ["InstanceSecret", "KeyFileError", "ServerKeys", "SigningKeys", "load_keys"]

log = logging.getLogger("small_council.keys")


@dataclass(frozen=True, slots=True)
class ServerKeys:
    """Both keys of a server process; every process serving the same database shares them."""

    secret: InstanceSecret
    signing: SigningKeys

    @classmethod
    def ephemeral(cls) -> ServerKeys:
        """Keys of this process alone, never written anywhere: a service made without the
        server's keys (a test, a scratch import) trusts no snapshot it did not write itself."""
        return cls(InstanceSecret.random(), SigningKeys.random())


def load_keys(settings: Settings) -> ServerKeys:
    """The keys the settings give, each key file made on first use (KeyFileError: one that
    cannot be used). A key file made now, where several processes share a database through
    Redis, is said loudly: the others must be given the same key."""
    secret, new_secret = load_secret(settings.INSTANCE_SECRET, settings.secret_file)
    signing, new_signing = load_signing(
        settings.SIGNING_KEY, settings.SIGNING_RETIRED_KEYS, settings.signing_key_file
    )
    made = [
        (path, variable)
        for path, variable, new in (
            (settings.secret_file, "INSTANCE_SECRET", new_secret),
            (settings.signing_key_file, "SIGNING_KEY", new_signing),
        )
        if new
    ]
    for path, variable in made:
        log.log(
            logging.WARNING if settings.REDIS_URL else logging.INFO,
            "made a new key file %s: back it up; every process serving this database must "
            "hold the same key (its content as %s)",
            path,
            variable,
        )
    return ServerKeys(secret, signing)
