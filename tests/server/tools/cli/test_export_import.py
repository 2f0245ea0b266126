"""`flask court export` and `flask court import`: a log moves between servers intact, a public
export keeps private parts back and still verifies, and a tampered file is refused whole."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from court.log.chain import GENESIS, Record, canonical, private_digest, verify
from tests.court import fold_golden
from tests.court.chained_logs import stored_as_exported
from tests.server.tools.cli.court_shell import Court, Played

MakeApp = Callable[[str], Flask]


def export(app: Flask, court: Court, game_id: str, path: Path, *flags: str) -> list[dict]:
    result = court(app, "export", game_id, "-o", str(path), *flags)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_full_export_imports_into_another_server_and_replays_the_same(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    export(app, court, played.id, tmp_path / "full.jsonl", "--full")
    other = make_app("other")

    imported = court(other, "import", str(tmp_path / "full.jsonl"))

    assert imported.exit_code == 0, imported.output
    assert imported.output == f"imported {played.id}: {played.gold[1]} records, ok\n"
    assert court(other, "verify", played.id).output == court(app, "verify", played.id).output
    assert court(other, "games", "--ids").output.split() == [played.id]
    for to in ([], ["--to", "4"], ["--to", str(played.gold[0])]):
        original = court(app, "replay", played.id, *to)
        copy = court(other, "replay", played.id, *to)
        assert copy.exit_code == 0
        assert copy.output == original.output


def test_a_full_export_is_a_backup_the_seats_can_play_on_from(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    export(app, court, played.id, tmp_path / "full.jsonl", "--full")
    other = make_app("other")
    assert court(other, "import", str(tmp_path / "full.jsonl")).exit_code == 0
    client = other.test_client()

    viewer = client.get(
        f"/api/games/{played.id}", headers={"Authorization": f"Bearer {played.tokens['tyrell']}"}
    ).get_json()["viewer"]
    gold = client.post(
        f"/api/games/{played.id}/commands/record_gold",
        json={"house": "lannister", "amount": 2, "cause": "After the move"},
        headers={"Authorization": f"Bearer {played.host_token}"},
    )

    assert viewer == {
        "seat": 2,
        "host": False,
        "role": "player",
        "holder": "seat:2",
        "handed_over": None,
    }
    assert gold.get_json() == {"ok": True, "version": played.gold[1] + 2}
    assert court(other, "verify", played.id).output.startswith(f"ok: {played.gold[1] + 2} records")


def test_a_full_export_is_every_stored_record_as_is(
    app: Flask, court: Court, played: Played, tmp_path: Path
) -> None:
    lines = export(app, court, played.id, tmp_path / "full.jsonl", "--full")

    stored = [r.to_json() for r in app.extensions["court_store"].read(played.id)]
    assert lines == stored
    assert verify(Record.from_json(line) for line in lines).ok


def test_a_public_export_withholds_every_private_part(
    app: Flask, court: Court, played: Played, tmp_path: Path
) -> None:
    lines = export(app, court, played.id, tmp_path / "public.jsonl")
    text = (tmp_path / "public.jsonl").read_text()

    assert len(lines) == played.gold[1]
    assert all(line["private"] is None for line in lines)
    assert "token_sha256" not in text.replace('"private_sha256"', "")
    assert 'dice_seed"' not in text
    full = [r.to_json() for r in app.extensions["court_store"].read(played.id)]
    secrets = [json.dumps(r["private"])[1:-1] for r in full if r["private"]]
    assert secrets and all(secret not in text for secret in secrets)


def test_a_public_export_to_stdout_is_the_same_as_to_a_file(
    app: Flask, court: Court, played: Played, tmp_path: Path
) -> None:
    lines = export(app, court, played.id, tmp_path / "public.jsonl")

    result = court(app, "export", played.id)

    assert result.exit_code == 0
    assert [json.loads(line) for line in result.output.splitlines()] == lines


def test_a_public_export_still_imports_verifies_and_replays_the_same(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    export(app, court, played.id, tmp_path / "public.jsonl")
    other = make_app("other")

    imported = court(other, "import", str(tmp_path / "public.jsonl"))

    assert imported.exit_code == 0, imported.output
    verified = court(other, "verify", played.id)
    assert verified.exit_code == 0
    assert verified.output == court(app, "verify", played.id).output
    assert court(other, "replay", played.id).output == court(app, "replay", played.id).output


@pytest.mark.parametrize("name", ["seat-refunded-choice-lapsed", "sim-4p-sealed-ballots-seed-5"])
def test_a_log_written_long_ago_imports_verifies_and_exports_as_it_was_stored(
    make_app: MakeApp, court: Court, tmp_path: Path, name: str
) -> None:
    """A stored log of tests/court/data/fold_logs (ballots open and sealed, sealed bids and
    their reveals, some before bids without a Warden were marked, Nobles added, decree turns
    with powers), exported: the codec reads each record into its typed event and the deep
    check passes; exported again, every record is the same JSON as it was written."""
    lines = stored_as_exported(fold_golden.read_log(name)[1])
    game_id = lines[0]["game_id"]
    app = make_app("restored")

    imported = court(app, "import", str(write(tmp_path / "old.jsonl", lines)))

    assert imported.exit_code == 0, imported.output
    assert imported.output == f"imported {game_id}: {len(lines)} records, ok\n"
    assert court(app, "verify", game_id).exit_code == 0
    again = export(app, court, game_id, tmp_path / "again.jsonl", "--full")
    assert [(canonical(a["data"]), canonical(a["private"])) for a in again] == [
        (canonical(line["data"]), canonical(line["private"])) for line in lines
    ]


# Each edit gets the exported lines and the index of each gold fact's line (a line's index is
# its record's version - 1; the second gold fact is the last line).


def edit_gold(lines: list[dict], gold: tuple[int, int]) -> None:
    lines[gold[0]]["data"]["amount"] = 500


def remove_line(lines: list[dict], gold: tuple[int, int]) -> None:
    del lines[3]


def swap_lines(lines: list[dict], gold: tuple[int, int]) -> None:
    lines[2], lines[3] = lines[3], lines[2]


def edit_seat_private(lines: list[dict], gold: tuple[int, int]) -> None:
    lines[2]["private"]["token_sha256"] = "0" * 64


def edit_dice_seed(lines: list[dict], gold: tuple[int, int]) -> None:
    lines[0]["private"]["dice_seed"] = "1" * 64


def edit_hash(lines: list[dict], gold: tuple[int, int]) -> None:
    lines[5]["hash"] = "f" * 64


def renumber(lines: list[dict], gold: tuple[int, int]) -> None:
    lines[4]["version"] = 6


def edit_seat_of_record(lines: list[dict], gold: tuple[int, int]) -> None:
    lines[gold[1]]["seat"] = 1


def remove_first_line(lines: list[dict], gold: tuple[int, int]) -> None:
    del lines[0]


def mix_in_another_game(lines: list[dict], gold: tuple[int, int]) -> None:
    lines[5]["game_id"] = "another-game"


# Each edit, and the index of the first record that no longer fits the chain (from `gold`).
Edit = Callable[[list[dict], tuple[int, int]], None]
TAMPERING: list[tuple[Edit, Callable[[tuple[int, int]], int]]] = [
    (edit_gold, lambda gold: gold[0]),
    (remove_line, lambda gold: 3),
    (swap_lines, lambda gold: 2),
    (edit_seat_private, lambda gold: 2),
    (edit_dice_seed, lambda gold: 0),
    (edit_hash, lambda gold: 5),
    (renumber, lambda gold: 4),
    (edit_seat_of_record, lambda gold: gold[1]),
    (remove_first_line, lambda gold: 0),
    (mix_in_another_game, lambda gold: 5),
]


@pytest.mark.parametrize(
    ("edit", "index"), [pytest.param(e, i, id=e.__name__) for e, i in TAMPERING]
)
def test_importing_a_tampered_export_is_refused_naming_the_first_bad_record(
    app: Flask,
    make_app: MakeApp,
    court: Court,
    played: Played,
    tmp_path: Path,
    edit: Edit,
    index: Callable[[tuple[int, int]], int],
) -> None:
    lines = export(app, court, played.id, tmp_path / "full.jsonl", "--full")
    gold = (played.gold[0] - 1, played.gold[1] - 1)
    assert [lines[i]["type"] for i in gold] == ["GoldAdjusted", "GoldAdjusted"]
    edit(lines, gold)
    other = make_app("other")

    result = court(other, "import", str(write(tmp_path / "tampered.jsonl", lines)))

    assert result.exit_code != 0
    assert f"(record {index(gold)}) fails the chain check" in result.output
    assert court(other, "games").output == ""


def test_importing_a_game_already_stored_is_refused(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    export(app, court, played.id, tmp_path / "full.jsonl", "--full")
    other = make_app("other")
    assert court(other, "import", str(tmp_path / "full.jsonl")).exit_code == 0

    again = court(other, "import", str(tmp_path / "full.jsonl"))
    home = court(app, "import", str(tmp_path / "full.jsonl"))

    for result in (again, home):
        assert result.exit_code != 0
        assert "game_exists" in result.output
        assert played.id in result.output
    assert court(other, "games", "--ids").output.split() == [played.id]
    assert court(other, "verify", played.id).output.startswith(f"ok: {played.gold[1]} records")


def test_importing_a_file_with_a_line_that_is_not_json_is_refused_naming_the_line(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    export(app, court, played.id, tmp_path / "full.jsonl", "--full")
    text = (tmp_path / "full.jsonl").read_text().splitlines()
    text[2] = text[2][:-1]
    (tmp_path / "broken.jsonl").write_text("\n".join(text) + "\n")
    other = make_app("other")

    result = court(other, "import", str(tmp_path / "broken.jsonl"))

    assert result.exit_code != 0
    assert "line 3 is not JSON" in result.output
    assert court(other, "games").output == ""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty_import"),
        ("\n\n", "empty_import"),
        ('{"game_id": "g"}\n', "bad_import"),
        ("[1, 2]\n", "bad_import"),
    ],
    ids=["empty", "blank-lines", "missing-fields", "not-a-record"],
)
def test_importing_a_file_that_is_not_an_exported_log_is_refused(
    make_app: MakeApp, court: Court, tmp_path: Path, content: str, message: str
) -> None:
    (tmp_path / "odd.jsonl").write_text(content)
    other = make_app("other")

    result = court(other, "import", str(tmp_path / "odd.jsonl"))

    assert result.exit_code != 0
    assert message in result.output
    assert court(other, "games").output == ""


def rechain(lines: list[dict]) -> list[dict]:
    """Recompute every hash as a forger with the file (and the published algorithm) could."""
    prev = GENESIS
    for line in lines:
        line["private_sha256"] = private_digest(line["private"])
        record = Record.from_json(line)
        line["hash"] = prev = record.expected_hash(prev)
    return lines


def test_importing_a_rechained_log_that_breaks_a_court_rule_is_refused(
    app: Flask, make_app: MakeApp, court: Court, played: Played, tmp_path: Path
) -> None:
    """R-2.1: a treasury can never go below zero, also not in a game brought in from a file."""
    lines = export(app, court, played.id, tmp_path / "full.jsonl", "--full")
    tyrell_gold = lines[played.gold[1] - 1]
    assert (tyrell_gold["data"]["house"], tyrell_gold["data"]["amount"]) == ("tyrell", -3)
    tyrell_gold["data"]["amount"] = -100
    forged = rechain(lines)
    assert verify(Record.from_json(line) for line in forged).ok
    other = make_app("other")

    result = court(other, "import", str(write(tmp_path / "forged.jsonl", forged)))

    assert result.exit_code != 0
    assert "R-2.1" in result.output
    assert court(other, "games").output == ""


def elected(app: Flask) -> str:
    """A game whose Warden of the North was elected in round 2 (Stark FOR Robb, a DECOY on
    Jaime), played through the HTTP API; its id."""
    from tests.server.http.court_client import lobby_game, start
    from tests.server.http.north_election import post, to_the_north_election

    client = app.test_client()
    game = lobby_game(client)
    start(client, game)
    to_the_north_election(client, game)
    post(client, game, "commands/stand", game.auth("lannister"), {"noble": "jaime-lannister"})
    post(client, game, "commands/pass", game.auth("tyrell"))
    post(client, game, "commands/stand", game.auth("stark"), {"noble": "robb-stark"})
    markers = [
        {"kind": "decoy", "candidate": "jaime-lannister"},
        {"kind": "for", "candidate": "robb-stark"},
    ]
    post(client, game, "commands/place_ballot", game.auth("stark"), {"markers": markers})
    return game.id


def test_an_export_with_for_and_decoy_swapped_and_rechained_is_refused(
    app: Flask, make_app: MakeApp, court: Court, tmp_path: Path
) -> None:
    """Section 10, R-7.1: the reveal must open the commitments published at placement; a
    forger who swaps the kinds in the secrets and the reveal and recomputes every digest and
    hash is refused at the first version that contradicts them."""
    game_id = elected(app)
    lines = export(app, court, game_id, tmp_path / "full.jsonl", "--full")
    placed = next(i for i, line in enumerate(lines) if line["type"] == "BallotPlaced")
    for secret in lines[placed]["private"]["secrets"]:
        secret["kind"] = {"for": "decoy", "decoy": "for"}[secret["kind"]]
    reveal = next(line for line in lines if line["type"] == "BallotsRevealed")
    for marker in reveal["data"]["markers"]:
        marker["kind"] = {"for": "decoy", "decoy": "for"}[marker["kind"]]
    reveal["data"]["votes"] = [
        {"noble": "jaime-lannister", "votes": 5},
        {"noble": "robb-stark", "votes": 0},
    ]
    reveal["data"]["winner"] = "jaime-lannister"
    forged = rechain(lines)
    assert verify(Record.from_json(line) for line in forged).ok  # the chain alone is fooled
    other = make_app("other")

    result = court(other, "import", str(write(tmp_path / "forged.jsonl", forged)))

    assert result.exit_code != 0
    assert f"Version {placed + 1} (record {placed}) fails the commitments check" in result.output
    assert court(other, "games").output == ""


def test_the_backup_of_any_game_the_server_stored_restores(
    make_app: MakeApp, court: Court, tmp_path: Path
) -> None:
    """Write-time checks equal restore-time checks: simulated games of every player count,
    long enough for Outlaws, deaths, Kings and reveals, each export (--full) imports."""
    source = make_app("source")
    url = source.config["DATABASE_URL"]
    played = court(
        source,
        "simulate",
        "--players",
        "3-6",
        "--variants",
        "all",
        "--rounds",
        "12",
        "--games",
        "8",
        "--seed",
        "7",
        "--database",
        url,
        "--quiet",
    )
    assert played.exit_code == 0, played.output
    target = make_app("target")
    games = court(source, "games", "--ids").output.split()
    assert len(games) == 8
    for game_id in games:
        path = tmp_path / f"{game_id}.jsonl"
        export(source, court, game_id, path, "--full")
        restored = court(target, "import", str(path))
        assert restored.exit_code == 0, restored.output
        assert court(target, "verify", game_id).output == court(source, "verify", game_id).output
