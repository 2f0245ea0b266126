"""`flask --app app court signing-key | rotate-secret | rotate-signing-key`: the server's keys
(server/keys/) shown and rotated from the shell. A rotation writes the key file the settings
name; a key given by an environment variable is the operator's to change, so for it the command
prints the new value to set in every process. The processes read their keys when they start:
restart them all after a rotation."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import click
from flask import current_app
from flask.cli import with_appcontext

from config.settings import Settings
from server.keys import ServerKeys
from server.keys.secret import InstanceSecret, new_secret, rotate_secret
from server.keys.signing import SigningKeys, b64, rotate_signing


def _settings() -> Settings:
    found: Settings = current_app.extensions["settings"]
    return found


def _keys() -> ServerKeys:
    found: ServerKeys = current_app.extensions["court"].keys
    return found


@click.command("signing-key")
@with_appcontext
def signing_key() -> None:
    """Print the public key the server's checkpoints verify with (as GET /api/signing-key
    answers), with the keys of before a rotation."""
    click.echo(json.dumps(_keys().signing.document(), indent=2))


@click.command("rotate-secret")
@with_appcontext
def rotate_secret_() -> None:
    """Make a new instance secret. Snapshots sealed under the old one are read no more (games
    fold from further back) and are written anew, sealed, as the server folds past them."""
    settings, old = _settings(), _keys().secret
    if settings.INSTANCE_SECRET:
        fresh = InstanceSecret.of(new_secret(), "a new secret")
        click.echo(
            "INSTANCE_SECRET is set: set it to this new value in every server process, then "
            "restart them all:",
            err=True,
        )
        click.echo(f"INSTANCE_SECRET={fresh.key.decode()}")
        return
    path = settings.secret_file
    fresh = rotate_secret(path)
    click.echo(
        f"rotated the instance secret in {path} (key id {old.key_id} -> {fresh.key_id}): "
        "restart every server process; snapshots sealed under the old secret are read no more, "
        "and are written anew as games are folded. Once every process runs with the new "
        f"secret, `DELETE FROM snapshots WHERE key_id <> '{fresh.key_id}'` frees their room."
    )


@click.command("rotate-signing-key")
@with_appcontext
def rotate_signing_key() -> None:
    """Make a new signing key. The old public key stays listed (GET /api/signing-key, `keys`),
    so that checkpoints players kept, signed with it, still verify."""
    settings, old = _settings(), _keys().signing
    if settings.SIGNING_KEY:
        fresh = SigningKeys.random()
        retired = [*(b64(raw) for raw in old.retired.values()), b64(old.public)]
        click.echo(
            "SIGNING_KEY is set: set these in every server process, then restart them all "
            f"(the old key {old.key_id} stays listed, so its checkpoints still verify):",
            err=True,
        )
        click.echo(f"SIGNING_KEY={fresh.text()}")
        click.echo(f"SIGNING_RETIRED_KEYS={','.join(retired)}")
        return
    path = settings.signing_key_file
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    before, fresh = rotate_signing(path, now)
    click.echo(
        f"rotated the signing key in {path} (key id {before.key_id} -> {fresh.key_id}); the old "
        f"public key stays listed in {path}.retired: restart every server process"
    )


COMMANDS = (signing_key, rotate_secret_, rotate_signing_key)
