"""An operator's rules profile that cannot be used never answers 500: it is left out of
GET /api/profiles with one log line naming its file and why, a game asked for with it is
refused with a sentence, and the others are listed and played as ever. The files every
profile shares, and the profile RULES_PROFILE names, stop the server at start-up instead."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from config.rulesdata import RulesDataError
from server.service.profiles import Profiles
from tests.config.operator_config import REFUSED, config_folder
from tests.databases import migrated

LOGGER = "small_council.rules"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"DATABASE_URL": migrated(tmp_path / "p.db"), "DEADLINES": False})
    app.extensions["profiles"] = Profiles(config_dir=config_folder(tmp_path))
    yield app
    app.extensions["court_store"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def told(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


def test_profiles_that_cannot_be_used_are_left_out_each_with_one_log_line(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)

    answers = [client.get("/api/profiles") for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 200]
    body = answers[0].get_json()
    assert body["profiles"] == ["default", "quick"]
    assert body["times"]["quick"]["deadlines"]["ballot"] == 60
    said = told(caplog)
    assert len(said) == len(REFUSED)  # once each, however often the list is asked for
    for file, reason in REFUSED.items():
        [line] = [line for line in said if f"profiles/{file}:" in line]
        assert line.startswith(f"rules profile left out: {reason}"), line


def test_a_profile_mended_is_offered_and_one_broken_again_is_said_again(
    app: Flask, client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    old = app.extensions["profiles"].config_dir / "profiles" / "old.toml"
    client.get("/api/profiles")
    text = old.read_text(encoding="utf-8")

    old.write_text(text.replace("sept_cost = 5", "sept_cost = 4"), encoding="utf-8")
    mended = client.get("/api/profiles").get_json()["profiles"]
    old.write_text(text, encoding="utf-8")
    client.get("/api/profiles")

    assert mended == ["default", "old", "quick"]
    assert sum("profiles/old.toml" in line for line in told(caplog)) == 2


def test_a_game_asked_for_with_a_profile_left_out_is_refused_and_the_others_play(
    client: FlaskClient,
) -> None:
    refused = [
        client.post("/api/games", json={"players": 3, "host_name": "Ann", "profile": name})
        for name in ("old", "bad", "broken", "gone")
    ]
    quick = client.post("/api/games", json={"players": 3, "host_name": "Ann", "profile": "quick"})

    assert {(r.status_code, r.get_json()["code"]) for r in refused} == {(404, "unknown_profile")}
    assert "profiles/old.toml: purchases.sept_cost 5" in refused[0].get_json()["message"]
    assert quick.status_code == 201, quick.get_json()
    game = client.get(f"/api/games/{quick.get_json()['game_id']}").get_json()
    assert game["game"]["profile"] == "quick"


def test_a_game_asked_for_with_no_profile_gets_rules_profile_s(tmp_path: Path) -> None:
    # given a server whose RULES_PROFILE is quick
    app = create_app({"DATABASE_URL": migrated(tmp_path / "q.db"), "DEADLINES": False})
    app.extensions["profiles"] = Profiles("quick", config_folder(tmp_path))
    try:
        client = app.test_client()
        created = client.post("/api/games", json={"players": 3, "host_name": "Ann"}).get_json()
        game = client.get(f"/api/games/{created['game_id']}").get_json()
        assert game["game"]["profile"] == "quick"
    finally:
        app.extensions["court_store"].close()


@pytest.mark.parametrize(
    ("file", "broken", "said"),
    [
        ("map.toml", ('principal = "', 'principal = ["'), "map.toml: invalid TOML"),
        ("roster.toml", ('gender = "lady"', 'gender = "maid"'), "roster.toml: noble"),
        ("titles.toml", ("vp = ", "vp = -"), "titles.toml: title"),
        ("profiles/default.toml", ("sept_cost = 4", "sept_cost = 5"), "RULES_PROFILE=default"),
    ],
)
def test_a_shared_file_or_the_default_profile_that_cannot_be_used_stops_the_server(
    tmp_path: Path, file: str, broken: tuple[str, str], said: str
) -> None:
    folder = config_folder(tmp_path)
    path = folder / file
    path.write_text(path.read_text(encoding="utf-8").replace(*broken, 1), encoding="utf-8")

    with pytest.raises(RulesDataError, match=re.escape(said)):
        Profiles(config_dir=folder)


def test_the_server_says_which_rules_file_it_cannot_use_and_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from server.tools.serve import main

    folder = config_folder(tmp_path)
    (folder / "titles.toml").write_text("[[titles]\n", encoding="utf-8")
    monkeypatch.setattr("config.rulesdata.CONFIG_DIR", folder)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'instance' / 'court.db'}")

    assert main([]) == 2
    assert "Small Council cannot start: titles.toml: invalid TOML" in capsys.readouterr().err
    assert not (tmp_path / "instance").exists()  # stopped before it made anything
