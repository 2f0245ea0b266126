"""The checks of a simulated game: why the court refused a command as an engine defect, and at
the end (section 10) that the log as exported verifies deeply and that the court rebuilt from it
through the service's replay paths equals the live one."""

from __future__ import annotations

import json
from typing import Any

from court.audit import audit
from court.commands import Actor, Command
from court.decide.signed import decide_move
from court.errors import CourtError
from court.log.chain import Record
from court.soundness.invariants import Unsound, require_sound
from server.messages.rebuilt import REBUILD
from server.service.court_service import CourtService
from server.service.filled import filled
from server.service.filled_table import Past
from server.service.ports import EventStore
from server.service.replay import Head
from server.store.sql import SqlEventStore


def defect(service: CourtService, game_id: str, command: Command, actor: Actor, now: float) -> str:
    """What an engine defect was: the command decided again as the service decides it, the
    invariants it broke or the exception it raised (the service logs them for its operator)."""
    head = service.current(game_id)
    decided = filled(command, game_id, head, service.presence, Past(service, game_id))
    try:
        decide_move(head.state, decided, actor, now, check=require_sound)
    except Unsound as exc:
        return "; ".join(exc.problems)
    except CourtError as exc:
        return f"{exc.code}: {exc.message}"
    except Exception as exc:  # the defect itself, reported by the simulation
        return f"{type(exc).__name__}: {exc}"
    return "decided soundly when asked again"


def exported_problems(service: CourtService, game_id: str) -> list[str]:
    """Where the game's exported log fails deep verification, or rebuilds to another court
    than the live one."""
    live = service.current(game_id)
    exported = [json.loads(json.dumps(r.to_json())) for r in service.records(game_id)]
    checked = audit([Record.from_json(line) for line in exported], rebuild=REBUILD)
    problems = []
    if not checked.ok:
        problems.append(
            f"the exported log fails verification at version {checked.bad_version}: "
            f"{checked.check}: {checked.reason}"
        )
    return problems + rebuilt_problems(service, game_id, exported, live)


def rebuilt_problems(
    service: CourtService, game_id: str, exported: list[dict[str, Any]], live: Head
) -> list[str]:
    """Rebuild the court through the service's replay path three ways — imported from the
    export into a new database, cold from this one's snapshots, and from the first event
    at a few versions — and say where one differs from the live court."""
    problems = []
    scratch = SqlEventStore("sqlite://")
    try:
        scratch.create_schema()
        imported = CourtService(scratch, snapshot_every=service.replay.every)
        imported.import_log(exported)
        if imported.current(game_id).state != live.state:
            problems.append("the state rebuilt from the export differs from the live one")
    finally:
        scratch.close()
    store: EventStore = service.store
    cold = CourtService(store, keys=service.keys)
    if cold.current(game_id).state != live.state:
        problems.append("the state rebuilt from the snapshots differs from the live one")
    whole = CourtService(store, snapshot_every=0)
    for version in sorted({1, live.version // 2, live.version - 1, live.version} - {0}):
        if cold.state_at(game_id, version) != whole.state_at(game_id, version):
            problems.append(f"version {version} rebuilt from a snapshot differs")
    return problems
