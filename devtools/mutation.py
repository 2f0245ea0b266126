"""How devtools/mutants.py plants a bug and runs tests on it: a copy of the tree (the working
tree is never touched), one mutant planted in it at a time and restored after, pytest run there
with a time limit, and the first test that failed read from its summary."""

from __future__ import annotations

import importlib.util
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = (".venv", "node_modules")  # linked into the copy, never copied
# Left out of the copy where git cannot list the tree's files.
UNCOPIED = (".git", "__pycache__", "*.pyc", ".*_cache", ".hypothesis", "instance", "test-output")
# Stop at the first failure and name it in the short summary (-rfE); write no cache, and start
# no xdist workers: a selection is a few tests, which workers would only slow down.
PYTEST = ("-m", "pytest", "-x", "-q", "-rfE", "-p", "no:cacheprovider", "-p", "no:xdist")


@dataclass(frozen=True, slots=True)
class Mutant:
    """One bug: `old`, found once in `path`, becomes `new`; `tests` (pytest node ids or paths
    of the suite) are expected to fail on it. `area` is the part of the server it breaks."""

    id: str
    area: str
    path: str
    bug: str
    old: str
    new: str
    tests: tuple[str, ...]

    def problem(self, root: Path = ROOT) -> str | None:
        """Why the mutant cannot be planted in the tree at `root`, or None."""
        file = root / self.path
        if not file.is_file():
            return f"{self.id}: there is no file {self.path}"
        found = file.read_text(encoding="utf-8").count(self.old)
        if found != 1:
            return f"{self.id}: its snippet occurs {found} times in {self.path}, not once"
        if self.old == self.new:
            return f"{self.id}: its replacement changes nothing"
        if not self.tests:
            return f"{self.id}: it names no test to run"
        return None


@dataclass(frozen=True, slots=True)
class Run:
    """A run of a selection: whether it passed, the first test that failed (or why the run
    failed without naming one), and how long it took."""

    passed: bool
    failed: str
    seconds: float


class BaselineFailed(Exception):
    """Selections that fail on the tree as it is: a mutant killed by them proves nothing."""


def first_failure(output: str) -> str:
    """The node id on the first FAILED or ERROR line of pytest's short summary, or ""."""
    for line in output.splitlines():
        kind, _, rest = line.partition(" ")
        if kind in ("FAILED", "ERROR") and rest:
            return rest.split(" - ", 1)[0].strip()
    return ""


def run_tests(tree: Path, tests: Sequence[str], timeout: float) -> Run:
    """pytest on `tests` in `tree`, stopping at the first failure; after `timeout` seconds its
    whole process group is killed (servers a test started too)."""
    started = time.monotonic()
    basetemp = tree.parent / f"{tree.name}-tmp"
    process = subprocess.Popen(
        [sys.executable, *PYTEST, f"--basetemp={basetemp}", *tests],
        cwd=tree,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return Run(False, f"timeout after {timeout:.0f} s", time.monotonic() - started)
    seconds = time.monotonic() - started
    if process.returncode == 0:
        return Run(True, "", seconds)
    # Exit status 5 (no test collected) fails too: a selection that names nothing proves nothing.
    return Run(False, first_failure(output) or f"pytest exit {process.returncode}", seconds)


def copy_tree(target: Path) -> Path:
    """A copy at `target` of the tree as it stands, uncommitted edits too, with .venv and
    node_modules linked to the tree's own."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        for name in listed.stdout.decode().split("\0"):
            source = ROOT / name
            if not name or name.split("/")[0] in SHARED or not source.is_file():
                continue  # a file deleted and not yet committed stays out too
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    else:
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(*UNCOPIED, *SHARED))
    for name in SHARED:
        if (ROOT / name).exists():
            (target / name).symlink_to((ROOT / name).resolve())
    return target


@contextmanager
def planted(tree: Path, mutant: Mutant) -> Iterator[None]:
    """The tree with the mutant planted, its file restored on the way out whatever happens."""
    file = tree / mutant.path
    original = file.read_bytes()
    text = original.decode("utf-8")
    file.write_text(text.replace(mutant.old, mutant.new, 1), encoding="utf-8")
    _forget_bytecode(file)
    try:
        yield
    finally:
        file.write_bytes(original)
        _forget_bytecode(file)


def _forget_bytecode(file: Path) -> None:
    """Python trusts a .pyc whose source has the same size and mtime second: a mutant as long
    as its original, written within the same second, would otherwise run as the other."""
    if file.suffix == ".py":
        Path(importlib.util.cache_from_source(str(file))).unlink(missing_ok=True)


class Trees:
    """A copy of the tree for each run going on at once, handed out and given back."""

    def __init__(self, folder: Path, count: int) -> None:
        self._free: queue.Queue[Path] = queue.Queue()
        for n in range(count):
            self._free.put(copy_tree(folder / f"tree-{n}"))

    @contextmanager
    def tree(self) -> Iterator[Path]:
        tree = self._free.get()
        try:
            yield tree
        finally:
            self._free.put(tree)


def outcomes(mutants: Sequence[Mutant], jobs: int, timeout: float) -> Iterator[tuple[Mutant, Run]]:
    """Every selection run once unmutated (BaselineFailed when one fails), then each mutant's
    run, in the order given, as each comes: `jobs` runs at once, each in a copy of its own."""
    with tempfile.TemporaryDirectory(prefix="mutants-") as folder:
        trees = Trees(Path(folder), jobs)

        def unmutated(tests: tuple[str, ...]) -> Run:
            with trees.tree() as tree:
                return run_tests(tree, tests, timeout)

        def mutated(mutant: Mutant) -> Run:
            with trees.tree() as tree, planted(tree, mutant):
                return run_tests(tree, mutant.tests, timeout)

        selections = list(dict.fromkeys(m.tests for m in mutants))
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            failing = [
                f"{' '.join(tests)}: {run.failed}"
                for tests, run in zip(selections, pool.map(unmutated, selections), strict=True)
                if not run.passed
            ]
            if failing:
                raise BaselineFailed("\n".join(failing))
            yield from zip(mutants, pool.map(mutated, mutants), strict=True)
