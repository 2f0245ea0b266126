"""`flask --app app court ...`: list, replay, verify, export and import game logs, and play
simulated games, from the shell; the server's keys are shown and rotated by server/tools/keys.py.

The read commands (games, replay, verify, export) open the database read-only: they never
write, and never start the deadline watcher, which is the server's part alone. `simulate`
plays into a throwaway database unless `--database` names one.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

import click
from flask import current_app
from flask.cli import AppGroup

from config.rulesdata import RulesDataError
from court.commands import SPECTATOR
from court.errors import CourtError
from court.state import GameStatus
from server.messages.views import court_of, observe
from server.private import open_private
from server.service.court_service import CourtService
from server.service.profiles import Profiles
from server.store.sql import SqlEventStore
from server.tools import keys
from server.tools.coverage import Coverage
from server.tools.sim_oracles import FINDINGS, known
from server.tools.sim_table import GameSummary
from server.tools.simulate import VARIANTS, every_mix, plan, simulate
from server.tools.witness import (
    WitnessError,
    check_signatures,
    judge,
    keys_of,
    read_held,
    read_witness,
)

court_cli = AppGroup("court", help="Inspect and move game logs, and play simulated games.")
for command in keys.COMMANDS:
    court_cli.add_command(command)


@contextmanager
def _reader() -> Iterator[CourtService]:
    """A service on the app's database opened read-only: any write would fail."""
    try:
        store = SqlEventStore(current_app.config["DATABASE_URL"], read_only=True)
        # The server's keys: the snapshots it sealed are read, and checked by verify.
        served = current_app.extensions["court"]
        reader = CourtService(store, keys=served.keys, rebuild=served.logs.rebuild)
        reader.length("")  # opens the database now: a missing one is said here, not in a trace
    except Exception as exc:
        click.echo(f"error: database_unavailable: cannot read the database: {exc}", err=True)
        sys.exit(2)
    try:
        yield reader
    finally:
        store.close()


def _fail(exc: CourtError) -> None:
    click.echo(f"error: {exc.code}: {exc.message}", err=True)
    sys.exit(2)


@court_cli.command("games")
@click.option("--ids", is_flag=True, help="Print the game ids alone, one a line.")
def games(ids: bool) -> None:
    """List the stored games, newest first: id, host, where it stands, seats, listed or
    private, records."""
    with _reader() as service:
        for game_id in service.games():
            click.echo(game_id if ids else _game_line(service, game_id))


def _game_line(service: CourtService, game_id: str) -> str:
    try:
        head = service.current(game_id)
    except Exception as exc:  # a log that no longer folds is listed, for verify to tell why
        return f"{game_id}  cannot be read: {exc}"
    state = head.state
    if state.status is GameStatus.LOBBY:
        where = "in the lobby"
    elif state.status is GameStatus.ENDED:
        where = f"ended in round {state.round}"
    else:
        phase = f", {state.phase.value.replace('_', ' ')} phase" if state.phase else ""
        where = f"round {state.round}{phase}"
    records = f"{head.version} record{'' if head.version == 1 else 's'}"
    return "  ".join(
        (
            game_id,
            (f"“{state.name}”, " if state.name else "") + f"{state.host_name}'s game",
            where,
            f"{len(state.seats)} of {state.players} seats",
            "listed" if state.listed else "private",
            records,
        )
    )


@court_cli.command("replay")
@click.argument("game_id")
@click.option("--to", "to_version", type=int, default=None, help="Version to stop at.")
def replay(game_id: str, to_version: int | None) -> None:
    """Print the court (public view) as it stood at version N (default: the newest)."""
    with _reader() as service:
        try:
            head = (
                service.current(game_id)
                if to_version is None
                else service.state_at(game_id, to_version)
            )
        except CourtError as exc:
            _fail(exc)
            return
    court = court_of(SPECTATOR, head)
    click.echo(json.dumps(court, indent=2))


@court_cli.command("verify")
@click.argument("game_id")
@click.option(
    "--witness",
    type=click.File("r"),
    default=None,
    help="Checkpoints the server signed, as a page saved them: the log must still hold each.",
)
@click.option(
    "--key",
    "public_keys",
    multiple=True,
    help="A public key (base64) the checkpoints must be signed with, instead of the server's.",
)
def verify(game_id: str, witness: TextIO | None, public_keys: tuple[str, ...]) -> None:
    """Check the game's log deeply (chain, commitments, tallies, dice, invariants at every
    version, ids and names, the snapshots beside it); exit 1 naming the first check that fails
    and its version. With --witness, then hold the log to the checkpoints of the file: exit 1
    naming the first version whose hash is not the one the server signed, 2 when a checkpoint's
    signature fails."""
    with _reader() as service:
        try:
            result = service.verify(game_id)
        except CourtError as exc:
            _fail(exc)
            return
        if not result.ok:
            click.echo(
                f"broken: record {result.bad_index} (version {result.bad_version}): "
                f"{result.check}: {result.reason}",
                err=True,
            )
            sys.exit(1)
        click.echo(f"ok: {result.records} records, head {result.head}")
        for note in result.notes:
            click.echo(f"  note: {note}")
        if witness is not None:
            _witness(service, game_id, witness.read(), public_keys)


def _witness(service: CourtService, game_id: str, text: str, given: tuple[str, ...]) -> None:
    try:
        checkpoints = read_witness(text, game_id)
        held = read_held(text)
        check_signatures(checkpoints, keys_of(given, service.keys.signing))
    except WitnessError as exc:
        click.echo(f"error: {exc.code}: {exc.message}", err=True)
        sys.exit(2)
    judged = judge(service.log(game_id), checkpoints, held)
    if judged.broken:
        click.echo(judged.broken, err=True)
        sys.exit(1)
    click.echo(
        f"witness: {judged.checked} checkpoints agree (versions {judged.first} to {judged.last})"
    )


@court_cli.command("export")
@click.argument("game_id")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="-",
    help="File, made readable by its owner alone (default: stdout).",
)
@click.option(
    "--full",
    is_flag=True,
    help="Include every private part (an operator backup: keep it as secret as the database).",
)
def export(game_id: str, output: str, full: bool) -> None:
    """Write the game's log as JSON Lines; private parts withheld unless --full. The log is
    read and written a page at a time: an export of any length holds a page in memory."""
    with _reader() as service:
        try:
            head = service.current(game_id)
            records = service.log(game_id, upto=head.version)
        except CourtError as exc:
            _fail(exc)
            return
        observer = observe(SPECTATOR, head.state)
        with _written(output) as out:
            for record in records:
                line = record.to_json() if full else observer.record(record)
                out.write(json.dumps(line, ensure_ascii=False) + "\n")


@contextmanager
def _written(output: str) -> Iterator[TextIO]:
    """Standard output for "-"; else the file, made 0600 as the database (server/private.py):
    a full export holds every whisper and secret of the game."""
    if output == "-":
        yield sys.stdout
        return
    with os.fdopen(open_private(Path(output)), "w", encoding="utf-8") as out:
        yield out


@court_cli.command("import")
@click.argument("path", type=click.File("r"))
def import_(path: TextIO) -> None:
    """Store an exported log as a game after verifying it deeply; refuse a file that fails
    any check, naming the first failing version and why. The file is read, checked and
    stored a page at a time, in one transaction: refused, nothing of it is stored."""
    first: list[str] = []

    def lines() -> Iterator[dict[str, Any]]:
        for number, text in enumerate(path, start=1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
            except json.JSONDecodeError as exc:
                raise BadLine(f"error: line {number} is not JSON: {exc}") from None
            if not first and isinstance(line, dict):
                first.append(str(line.get("game_id")))
            yield line

    service: CourtService = current_app.extensions["court"]
    current_app.extensions["court_store"].create_schema()
    try:
        result = service.import_log(lines())
    except CourtError as exc:
        _fail(exc)
        return
    except BadLine as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    click.echo(f"imported {first[0]}: {result.records} records, ok")


class BadLine(Exception):
    """A line of the file to import that is not JSON."""


def _counts(text: str) -> list[int]:
    """ "4", "3,5" or "3-6" as a list of player counts."""
    counts: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        try:
            counts += list(range(int(low), int(high or low) + 1))
        except ValueError:
            raise click.BadParameter(f"{text!r}: write 4, 3,5 or 3-6") from None
    if not counts or any(not 3 <= n <= 6 for n in counts):
        raise click.BadParameter(f"{text!r}: the rules allow 3 to 6 players (R-1.1)")
    return counts


def _mixes(text: str) -> list[dict[str, bool]] | None:
    """ "random" (None: each game's seed draws them), "all" (each mix in turn), "none", or
    variant names joined by commas."""
    if text == "random":
        return None
    if text == "all":
        return every_mix()
    names = set() if text == "none" else {v.strip() for v in text.split(",")}
    unknown = names - set(VARIANTS)
    if unknown:
        raise click.BadParameter(
            f"unknown variant(s) {sorted(unknown)}; use random, all, none or {', '.join(VARIANTS)}"
        )
    return [{v: v in names for v in VARIANTS}]


def _ruleset(profile: str) -> dict[str, Any]:
    """The named profile's rules ("random": the default's, each game drawing its settings);
    exit 2 for a profile the book does not hold."""
    book: Profiles = current_app.extensions["profiles"]
    try:
        return book.ruleset(book.default if profile == "random" else profile)
    except RulesDataError as exc:
        click.echo(f"error: unknown_profile: {exc}", err=True)
        sys.exit(2)


@court_cli.command("simulate")
@click.option("--players", default="4", show_default=True, help="A count, or 3,5 or 3-6.")
@click.option("--rounds", type=click.IntRange(1, 50), default=5, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same game.")
@click.option("--games", type=click.IntRange(1, 100_000), default=1, show_default=True)
@click.option(
    "--variants",
    default="random",
    show_default=True,
    help="random, all (each mix in turn), none, or names joined by commas.",
)
@click.option(
    "--profile",
    default="random",
    show_default=True,
    help="random (each game draws every setting from its allowed values) or a profile's name.",
)
@click.option(
    "--database",
    default=None,
    help="Keep the games in this database URL; by default a throwaway SQLite file.",
)
@click.option("--quiet", is_flag=True, help="Print only games with problems and the summary.")
@click.option(
    "--coverage",
    is_flag=True,
    help="Print how many times each event type, refusal code and rule id occurred in the run.",
)
def simulate_(
    players: str,
    rounds: int,
    seed: int,
    games: int,
    variants: str,
    profile: str,
    database: str | None,
    quiet: bool,
    coverage: bool,
) -> None:
    """Play whole games with random legal moves and random recorded facts at every moment,
    stored like real games, checking the court after every event; exit 1 if any check
    failed. Game n plays the n-th player count and variant mix, in turn; each game draws
    its rules profile unless one is named."""
    counts, mixes, ruleset = _counts(players), _mixes(variants), _ruleset(profile)
    reached, findings = Coverage(), Counter[str]()
    with tempfile.TemporaryDirectory(prefix="court-simulate-") as scratch:
        store = SqlEventStore(database or f"sqlite:///{Path(scratch) / 'simulate.db'}")
        store.create_schema()
        failed, started = 0, time.perf_counter()
        try:
            for n in range(games):
                count, mix = plan(n, counts, mixes)
                summary = simulate(
                    store,
                    ruleset,
                    players=count,
                    rounds=rounds,
                    seed=seed + n,
                    variants=mix,
                    random_rules=profile == "random",
                    keys=current_app.extensions["court"].keys,
                )
                reached.merge(summary.coverage)
                findings.update(str(known(p)) for p in summary.known)
                failed += _report(summary, quiet)
        finally:
            store.close()
    rate = games / (time.perf_counter() - started)
    click.echo(f"{games} game(s), {failed} with problems, {rate:.2f} games per second")
    _known(findings)
    if coverage:
        click.echo("\n".join(reached.table()))
    sys.exit(1 if failed else 0)


def _known(findings: Counter[str]) -> None:
    """The known findings of the run, by the test that reproduces each."""
    if findings:
        click.echo(f"known findings, each reproduced by a strict xfail test of {FINDINGS}:")
        click.echo("\n".join(f"  {test}: {n}" for test, n in sorted(findings.items())))


def _report(summary: GameSummary, quiet: bool) -> bool:
    """Print the game's line (unless quiet and sound), its first problems and (unless quiet)
    its first known findings; whether it had problems."""
    if not quiet or summary.problems:
        click.echo(summary.line())
    for problem in summary.problems[:20]:
        click.echo(f"  problem: {problem}", err=True)
    for finding in [] if quiet else summary.known[:5]:
        click.echo(f"  known: {finding}")
    return bool(summary.problems)
