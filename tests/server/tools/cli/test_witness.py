"""`flask court verify GAME --witness FILE`: the hash chain proves only that the log agrees with
itself, so whoever can write the database can change a record and recompute every hash after it;
the checkpoints the server signed and a player kept hold the server to the log it showed then."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from flask import Flask

from tests.server.tools.cli.court_shell import Court, Played, rewrite

MakeApp = Callable[[str], Flask]


def checkpoint(app: Flask, played: Played, version: int | None = None) -> dict[str, Any]:
    """The signed checkpoint a player's page is shown with the court (at `version`)."""
    path = f"/api/games/{played.id}" + (f"/versions/{version}" if version else "")
    auth = {"Authorization": f"Bearer {played.tokens['tyrell']}"}
    found: dict[str, Any] = app.test_client().get(path, headers=auth).get_json()["checkpoint"]
    return found


def saved(tmp_path: Path, game_id: str, checkpoints: list[dict[str, Any]]) -> Path:
    """The file a page saves: the game and its checkpoints, as the server signed them."""
    path = tmp_path / "witness.json"
    kept = [{k: c[k] for k in ("version", "hash", "key_id", "signature")} for c in checkpoints]
    path.write_text(json.dumps({"game_id": game_id, "checkpoints": kept}))
    return path


def test_a_checkpoint_names_the_version_of_a_rewritten_and_rehashed_log(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    # Given a checkpoint a player kept of the head of a game played through the API
    witness = saved(tmp_path, played.id, [checkpoint(app, played)])
    assert court(app, "verify", played.id, "--witness", str(witness)).exit_code == 0
    # When the first gold fact is changed in the database and every hash after it recomputed
    rewrite(played.db, played.id, played.gold[0], amount=50)
    # Then the log still agrees with itself: verify alone finds nothing ...
    alone = court(make_app("t"), "verify", played.id)
    assert alone.exit_code == 0, alone.output
    assert alone.output.startswith(f"ok: {played.gold[1]} records")
    # ... while the player's checkpoint names the version the server signed and no longer holds
    result = court(make_app("t"), "verify", played.id, "--witness", str(witness))
    assert result.exit_code == 1, result.output
    assert f"broken: version {played.gold[1]} " in result.output
    assert "the server signed" in result.output


def test_checkpoints_of_every_version_name_the_first_record_rewritten(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    kept = [checkpoint(app, played, v) for v in range(1, played.gold[1] + 1)]
    witness = saved(tmp_path, played.id, kept)
    rewrite(played.db, played.id, played.gold[0], cause="Nothing happened")

    result = court(make_app("t"), "verify", played.id, "--witness", str(witness))

    assert result.exit_code == 1, result.output
    assert f"broken: version {played.gold[0]} " in result.output
    assert f"version {played.gold[0] - 1} still agrees" in result.output


def test_an_intact_log_agrees_with_every_checkpoint(
    app: Flask, court: Court, played: Played, tmp_path: Path
) -> None:
    kept = [checkpoint(app, played, v) for v in (1, played.started, played.gold[1])]
    result = court(app, "verify", played.id, "--witness", str(saved(tmp_path, played.id, kept)))

    assert result.exit_code == 0, result.output
    assert f"witness: 3 checkpoints agree (versions 1 to {played.gold[1]})" in result.output


def test_a_checkpoint_whose_signature_fails_is_refused_naming_it(
    app: Flask, court: Court, played: Played, tmp_path: Path
) -> None:
    # Given a checkpoint whose hash was changed after the server signed it
    forged = {**checkpoint(app, played, played.started), "hash": "ab" * 32}
    witness = saved(tmp_path, played.id, [checkpoint(app, played, 1), forged])

    result = court(app, "verify", played.id, "--witness", str(witness))

    assert result.exit_code == 2, result.output
    assert f"bad_checkpoint: The checkpoint of version {played.started}" in result.output


def test_a_key_given_on_the_command_line_is_the_one_the_signatures_must_verify_with(
    app: Flask, court: Court, played: Played, tmp_path: Path
) -> None:
    witness = saved(tmp_path, played.id, [checkpoint(app, played)])
    served = app.test_client().get("/api/signing-key").get_json()
    other = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    own = court(app, "verify", played.id, "--witness", str(witness), "--key", served["public_key"])
    wrong = court(
        app,
        "verify",
        played.id,
        "--witness",
        str(witness),
        "--key",
        base64.b64encode(other).decode(),
    )

    assert own.exit_code == 0, own.output
    assert wrong.exit_code == 2 and "unknown_key" in wrong.output, wrong.output


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("not json", "bad_witness"),
        ('{"game_id": "x", "checkpoints": []}', "bad_witness"),
        ('{"checkpoints": [{"version": 1}]}', "bad_witness"),
    ],
    ids=["not-json", "other-game", "fields-missing"],
)
def test_a_witness_file_that_is_not_one_is_refused_with_a_clear_line(
    app: Flask, court: Court, played: Played, tmp_path: Path, content: str, code: str
) -> None:
    path = tmp_path / "witness.json"
    path.write_text(content)

    result = court(app, "verify", played.id, "--witness", str(path))

    assert result.exit_code == 2, result.output
    assert f"error: {code}: " in result.output
    assert "Traceback" not in result.output


def test_the_hashes_a_page_held_name_the_first_record_rewritten_below_a_checkpoint(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    # Given the checkpoint of the head a page kept, with the hashes it held of every version
    chain = app.test_client().get(f"/api/games/{played.id}/chain").get_json()
    held = {str(r["version"]): r["hash"] for r in chain["records"]}
    witness = saved(tmp_path, played.id, [checkpoint(app, played)])
    evidence = {**json.loads(witness.read_text()), "held": held}
    witness.write_text(json.dumps(evidence))
    # When the first gold fact is rewritten, every hash after it recomputed
    rewrite(played.db, played.id, played.gold[0], amount=50)
    # Then verify names that fact's version, as the page did, not the checkpoint's alone
    result = court(make_app("t"), "verify", played.id, "--witness", str(witness))
    assert result.exit_code == 1, result.output
    assert f"broken: version {played.gold[0]} is the first that differs" in result.output
    assert f"version {played.gold[0] - 1} still agrees" in result.output


@pytest.mark.parametrize(
    "held", [["not", "a", "map"], {"x": "0" * 64}, {"3": "short"}], ids=["list", "key", "hash"]
)
def test_held_hashes_that_are_not_a_map_of_versions_are_refused(
    app: Flask, court: Court, played: Played, tmp_path: Path, held: object
) -> None:
    witness = saved(tmp_path, played.id, [checkpoint(app, played)])
    witness.write_text(json.dumps({**json.loads(witness.read_text()), "held": held}))

    result = court(app, "verify", played.id, "--witness", str(witness))

    assert result.exit_code == 2, result.output
    assert "error: bad_witness: " in result.output
