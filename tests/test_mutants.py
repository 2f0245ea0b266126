"""The mutation check's bugs (devtools/mutants.py) still fit the code they break: each snippet is
found once in its file, each names tests of the suite, and together they reach the engine, the
observer, the service and authorization. Nothing is planted or run here: `make mutants` does."""

from __future__ import annotations

from pathlib import Path

import pytest

from devtools.mutants import AREAS, MUTANTS
from devtools.mutation import ROOT, Mutant

# What the check must keep planting a bug in, by area: a module, or every module of a folder.
REACHES = {
    "engine": {
        "elections/tally.py",
        "elections/turns.py",
        "court/soundness/invariants.py",
        "court/decide/",
        "court/evolve/",
        "court/log/chain.py",
    },
    "observer": {"court/views/", "server/service/talk.py"},
    "service": {"server/service/court_service.py", "server/service/talk.py", "server/store/"},
    "authz": {"server/http/", "server/live/sockets.py", "server/messages/"},
}


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.id)
def test_each_mutant_s_snippet_occurs_once_in_its_file(mutant: Mutant) -> None:
    assert mutant.problem() is None


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.id)
def test_each_mutant_runs_test_files_of_the_suite(mutant: Mutant) -> None:
    """A selection names tests/ files that exist, never this file (it would pass on any bug)."""
    files = {test.split("::")[0] for test in mutant.tests}
    assert all(f.startswith("tests/") and (ROOT / f).exists() for f in files), files
    assert Path(__file__).relative_to(ROOT).as_posix() not in files


def test_at_least_twenty_mutants_each_with_its_own_id_and_a_known_area() -> None:
    ids = [m.id for m in MUTANTS]
    assert len(ids) >= 20 and len(set(ids)) == len(ids)
    assert {m.area for m in MUTANTS} == set(AREAS) == set(REACHES)


@pytest.mark.parametrize("area", AREAS)
def test_the_mutants_of_each_area_reach_every_part_of_it(area: str) -> None:
    planted = {m.path for m in MUTANTS if m.area == area}
    missed = {
        part
        for part in REACHES[area]
        if not any(p == part or (part.endswith("/") and p.startswith(part)) for p in planted)
    }
    assert not missed, f"no {area} mutant is planted in {sorted(missed)}"
