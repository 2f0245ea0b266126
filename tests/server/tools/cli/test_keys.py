"""The server's keys (server/keys/, docs/deployment.md, "Keys"): made on first start next to the
SQLite file, readable by the server's user alone, shared by every app on the same folder, taken
from the environment when given there, and rotated by `flask court rotate-secret` and
`rotate-signing-key`, with what rotation means for old snapshots and kept checkpoints."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from config.settings import SettingError
from court.commands import AdjustGold
from court.ids import HouseId
from server.keys.secret import new_secret
from server.keys.signing import SigningKeys, retired_path
from server.service.court_service import CourtService
from server.service.replay import Seal
from tests.databases import migrated
from tests.server.http.court_client import lobby_game, start
from tests.server.tools.cli.court_shell import Court, Played

MakeApp = Callable[[str], Flask]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_first_start_makes_both_key_files_for_the_servers_user_alone(
    app: Flask, tmp_path: Path
) -> None:
    for name in ("secret.key", "signing.key"):
        assert (tmp_path / name).exists(), name
        assert mode(tmp_path / name) == 0o600
    assert len((tmp_path / "secret.key").read_text().strip()) == 64


def test_apps_on_one_folder_share_their_keys(make_app: MakeApp) -> None:
    first, second = make_app("t"), make_app("t")
    a, b = first.extensions["court"].keys, second.extensions["court"].keys
    assert a.secret.key_id == b.secret.key_id
    assert a.signing.document() == b.signing.document()


def test_keys_given_by_the_environment_are_used_and_no_file_is_made(tmp_path: Path) -> None:
    signing = SigningKeys.random()
    secret = new_secret()
    app = create_app(
        {
            "DATABASE_URL": migrated(tmp_path / "env.db"),
            "INSTANCE_SECRET": secret,
            "SIGNING_KEY": signing.text(),
        }
    )
    try:
        keys = app.extensions["court"].keys
        assert keys.secret.key == secret.encode()
        assert keys.signing.key_id == signing.key_id
        assert not (tmp_path / "secret.key").exists() and not (tmp_path / "signing.key").exists()
        # ... and kept out of the app's config and of any repr of the settings
        assert "INSTANCE_SECRET" not in app.config and "SIGNING_KEY" not in app.config
        shown = repr(app.extensions["settings"])
        assert secret not in shown and signing.text() not in shown
    finally:
        app.extensions["court_store"].close()


@pytest.mark.parametrize(
    ("setting", "value", "named"),
    [
        ("INSTANCE_SECRET", "short", "INSTANCE_SECRET must hold at least 32 characters"),
        ("SIGNING_KEY", "not a key", "SIGNING_KEY must hold a base64 Ed25519 private key"),
        ("SIGNING_RETIRED_KEYS", "AAAA", "SIGNING_RETIRED_KEYS"),
    ],
)
def test_a_key_the_server_cannot_use_stops_it_naming_the_setting(
    tmp_path: Path, setting: str, value: str, named: str
) -> None:
    with pytest.raises(SettingError, match=named):
        create_app({"DATABASE_URL": migrated(tmp_path / "bad.db"), setting: value})


def test_signing_key_prints_the_document_the_api_serves(app: Flask, court: Court) -> None:
    result = court(app, "signing-key")

    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == app.test_client().get("/api/signing-key").get_json()


def test_a_rotated_secret_reads_no_old_snapshot_and_seals_them_anew_as_games_fold(
    make_app: MakeApp, court: Court, tmp_path: Path
) -> None:
    # Given a game with snapshots sealed under the first secret
    url = migrated(tmp_path / "s.db")
    first = create_app({"DATABASE_URL": url, "SNAPSHOT_EVERY": 5})
    service: CourtService = first.extensions["court"]
    game = lobby_game(first.test_client())
    start(first.test_client(), game)
    game_id, host = game.id, service.authenticate(game.id, game.host_token)[0]
    for n in range(12):
        service.handle(game_id, AdjustGold(house=HouseId("stark"), amount=1, cause=f"{n}"), host)
    service.state_at(game_id, 10)  # a fold keeps the snapshot at 10 on its way
    old = service.replay.nearest(game_id, 10)
    assert old is not None and old.version == 10
    first.extensions["court_store"].close()
    # When the secret is rotated and the server restarted
    rotated = court(make_app("shell"), "rotate-secret")  # same folder, same key files
    assert rotated.exit_code == 0, rotated.output
    assert mode(tmp_path / "secret.key") == 0o600
    second = create_app({"DATABASE_URL": url, "SNAPSHOT_EVERY": 5})
    try:
        replay = second.extensions["court"].replay
        # Then no old snapshot is read ...
        assert replay.nearest(game_id, 20) is None
        stored = second.extensions["court_store"].snapshot_at(game_id, old.version, replay.format)
        assert replay.seal_of(stored) is Seal.OTHER
        # ... and folding the game seals them anew under the new secret as it passes them
        assert second.test_client().get(f"/api/games/{game_id}").status_code == 200
        stored = second.extensions["court_store"].snapshot_at(game_id, old.version, replay.format)
        assert replay.seal_of(stored) is Seal.OWN
        assert replay.nearest(game_id, 20) is not None
    finally:
        second.extensions["court_store"].close()


def test_a_rotated_signing_key_still_verifies_checkpoints_kept_before(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    # Given a checkpoint a player kept under the first signing key
    auth = {"Authorization": f"Bearer {played.tokens['stark']}"}
    kept = app.test_client().get(f"/api/games/{played.id}", headers=auth).get_json()["checkpoint"]
    witness = tmp_path / "witness.json"
    witness.write_text(json.dumps({"game_id": played.id, "checkpoints": [kept]}))
    # When the signing key is rotated
    rotated = court(app, "rotate-signing-key")
    assert rotated.exit_code == 0, rotated.output
    # Then a restarted server signs with a new key and still lists the old one ...
    restarted = make_app("t")
    served = restarted.test_client().get("/api/signing-key").get_json()
    assert served["key_id"] != kept["key_id"]
    assert {k["key_id"]: k["current"] for k in served["keys"]} == {
        served["key_id"]: True,
        kept["key_id"]: False,
    }
    assert kept["key_id"] in retired_path(tmp_path / "signing.key").read_text()
    new = restarted.test_client().get(f"/api/games/{played.id}").get_json()["checkpoint"]
    assert new["key_id"] == served["key_id"] and new["hash"] == kept["hash"]
    # ... so the checkpoint kept before still holds the server to its log
    result = court(restarted, "verify", played.id, "--witness", str(witness))
    assert result.exit_code == 0, result.output
    assert "witness: 1 checkpoints agree" in result.output


@pytest.mark.parametrize("command", ["rotate-secret", "rotate-signing-key"])
def test_a_key_from_the_environment_is_rotated_by_printing_the_values_to_set(
    tmp_path: Path, court: Court, command: str
) -> None:
    signing = SigningKeys.random()
    app = create_app(
        {
            "DATABASE_URL": migrated(tmp_path / "env.db"),
            "INSTANCE_SECRET": new_secret(),
            "SIGNING_KEY": signing.text(),
        }
    )
    try:
        result = court(app, command)
    finally:
        app.extensions["court_store"].close()

    assert result.exit_code == 0, result.output
    printed = dict(
        line.split("=", 1) for line in result.stdout.splitlines() if "=" in line and " " not in line
    )
    if command == "rotate-secret":
        assert len(printed["INSTANCE_SECRET"]) == 64
    else:
        assert SigningKeys.of(printed["SIGNING_KEY"], "x").key_id != signing.key_id
        assert printed["SIGNING_RETIRED_KEYS"] == signing.document()["public_key"]
    assert not (tmp_path / "secret.key").exists()
