"""`flask --app app court ...`: replay, verify, export and import game logs from the shell."""

from __future__ import annotations

import json
import sys

import click
from flask import current_app
from flask.cli import AppGroup

from config.rulesdata import RulesDataError, load_ruleset
from court.chain import Record
from court.commands import SPECTATOR
from court.errors import CourtError
from court.service import CourtService
from court.simulate import simulate
from court.views import court_view, export_lines

court_cli = AppGroup("court", help="Inspect and move game logs.")


def _service() -> CourtService:
    return current_app.extensions["court"]


def _fail(exc: CourtError) -> None:
    click.echo(f"error: {exc.code}: {exc.message}", err=True)
    sys.exit(2)


@court_cli.command("games")
def games() -> None:
    """List the stored games, newest first."""
    for game_id in _service().games():
        click.echo(game_id)


@court_cli.command("replay")
@click.argument("game_id")
@click.option("--to", "to_version", type=int, default=None, help="Version to stop at.")
def replay(game_id: str, to_version: int | None) -> None:
    """Print the court (public view) as it stood at version N (default: the newest)."""
    try:
        service = _service()
        head = (
            service.current(game_id)
            if to_version is None
            else service.state_at(game_id, to_version)
        )
    except CourtError as exc:
        _fail(exc)
        return
    click.echo(json.dumps(court_view(head.state, head.version, SPECTATOR), indent=2))


@court_cli.command("verify")
@click.argument("game_id")
def verify(game_id: str) -> None:
    """Check the hash chain; exit 1 naming the first bad record."""
    try:
        result = _service().verify(game_id)
    except CourtError as exc:
        _fail(exc)
        return
    if result.ok:
        click.echo(f"ok: {result.records} records, head {result.head}")
        return
    click.echo(
        f"broken: record {result.bad_index} (version {result.bad_version}): {result.reason}",
        err=True,
    )
    sys.exit(1)


@court_cli.command("export")
@click.argument("game_id")
@click.option("-o", "--output", type=click.File("w"), default="-", help="File (default: stdout).")
@click.option(
    "--full",
    is_flag=True,
    help="Include every private part (an operator backup: keep it as secret as the database).",
)
def export(game_id: str, output: click.utils.LazyFile, full: bool) -> None:
    """Write the game's log as JSON Lines; private parts withheld unless --full."""
    try:
        service = _service()
        head = service.current(game_id)
        records = service.records(game_id)
    except CourtError as exc:
        _fail(exc)
        return
    lines = [r.to_json() for r in records] if full else export_lines(records, SPECTATOR, head.state)
    for line in lines:
        output.write(json.dumps(line, ensure_ascii=False) + "\n")


@court_cli.command("import")
@click.argument("path", type=click.File("r"))
def import_(path: click.utils.LazyFile) -> None:
    """Store an exported log as a game after verifying its chain; refuse a tampered file."""
    lines = []
    for number, text in enumerate(path, start=1):
        if not text.strip():
            continue
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError as exc:
            click.echo(f"error: line {number} is not JSON: {exc}", err=True)
            sys.exit(2)
    try:
        result = _service().import_log(lines)
    except CourtError as exc:
        _fail(exc)
        return
    click.echo(f"imported {Record.from_json(lines[0]).game_id}: {result.records} records, ok")


@court_cli.command("simulate")
@click.option("--players", type=click.IntRange(3, 6), default=4, show_default=True)
@click.option("--rounds", type=click.IntRange(1, 50), default=5, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same game.")
@click.option("--games", type=click.IntRange(1, 10_000), default=1, show_default=True)
@click.option("--profile", default="default", show_default=True)
def simulate_(players: int, rounds: int, seed: int, games: int, profile: str) -> None:
    """Play whole games with random legal moves and random recorded facts, stored like real
    games, checking the court after every event; exit 1 if any check failed."""
    try:
        ruleset = load_ruleset(profile)
    except RulesDataError as exc:
        click.echo(f"error: unknown_profile: {exc}", err=True)
        sys.exit(2)
    store = current_app.extensions["court_store"]
    failed = 0
    for offset in range(games):
        summary = simulate(store, ruleset, players=players, rounds=rounds, seed=seed + offset)
        click.echo(summary.line())
        for problem in summary.problems[:20]:
            click.echo(f"  problem: {problem}", err=True)
        failed += bool(summary.problems)
    click.echo(f"{games} game(s), {failed} with problems")
    sys.exit(1 if failed else 0)
