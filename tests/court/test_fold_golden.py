"""Snapshots of one FORMAT hold the fold of one code (court/log/snapshot.py): the stored logs of
data/fold_logs fold into the courts recorded under the current FORMAT, and the state keeps the
shape recorded there, or the number is bumped (tests/court/fold_golden.py records them)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from court.events import EVENT_TYPES
from court.ids import HouseId
from court.log import snapshot
from tests.court import fold_golden
from tests.court.fold_golden import COMMAND
from tests.court.given import given, started

GOLDEN = fold_golden.load()
BUMP = f"bump FORMAT in court/log/snapshot.py, then run `{COMMAND}`"


def test_the_golden_record_was_written_under_the_current_format() -> None:
    assert GOLDEN["format"] == snapshot.FORMAT, (
        f"court/log/snapshot.py declares FORMAT {snapshot.FORMAT}, the fold was recorded under "
        f"{GOLDEN['format']}: run `{COMMAND}` to record it under the new number."
    )


def same_format() -> None:
    if GOLDEN["format"] != snapshot.FORMAT:
        pytest.skip("the fold was recorded under another FORMAT (see the test above)")


def test_the_state_keeps_the_shape_recorded_under_its_format() -> None:
    same_format()
    assert fold_golden.shape_digest() == GOLDEN["shape"], (
        "The state's shape changed, and the snapshots stored in the old shape cannot be read "
        f"back: {BUMP}."
    )


def test_every_stored_log_has_its_courts_recorded() -> None:
    assert fold_golden.stored_names() == sorted(GOLDEN["logs"])


@pytest.mark.parametrize("name", sorted(GOLDEN["logs"]))
def test_each_stored_log_folds_into_the_courts_recorded_under_this_format(name: str) -> None:
    """A court that differs from the recorded one is what a server would fold where another
    holds a snapshot of the older fold under the same FORMAT."""
    same_format()
    text, lines = fold_golden.read_log(name)
    recorded = GOLDEN["logs"][name]
    assert fold_golden.log_digest(text) == recorded["log"], (
        f"data/fold_logs/{name}.jsonl.gz changed: a stored log is never rewritten (record a new "
        "one under another name instead)."
    )
    courts: dict[str, str] = {}
    version = 0
    try:
        for version, state in fold_golden.fold(lines):
            if str(version) in recorded["courts"]:
                courts[str(version)] = fold_golden.digest(state)
    except Exception as exc:
        pytest.fail(
            f"{name} cannot be folded at version {version + 1} ({exc!r}): logs stored in this "
            "shape would no longer be read; an upcaster (court/log/codec.py) reads an old shape."
        )
    differ = [int(v) for v, d in recorded["courts"].items() if courts.get(v) != d]
    assert not differ, (
        f"{name} folds into another court than the one recorded under snapshot FORMAT "
        f"{snapshot.FORMAT} (first seen at version {min(differ)}): servers would read snapshots "
        f"of the older fold back as this one's. If the change is meant, {BUMP}."
    )


# Every kind of event is folded by a stored log: a change in how one folds cannot pass unseen.
# Recording a log for a new kind: add its builder to fold_golden.BUILDERS, run with --record.
def test_the_stored_logs_fold_every_kind_of_event() -> None:
    folded = {line["type"] for name in GOLDEN["logs"] for line in fold_golden.read_log(name)[1]}
    assert sorted(set(EVENT_TYPES) - folded) == []


def test_the_digest_tells_courts_apart_but_not_the_order_a_set_iterates_in() -> None:
    """Maps count in their order: a court read back from a snapshot iterates in the stored one.
    A set of strings iterates in another order in each process, so the digest sorts it."""
    state = given(*started(3))
    same = fold_golden.digest(state)
    poorer = replace(state, treasury={**state.treasury, HouseId("stark"): 9})
    reordered = replace(state, treasury=dict(reversed(state.treasury.items())))
    turned = replace(state, seat_order=tuple(reversed(state.seat_order)))
    for other in (poorer, reordered, turned):
        assert fold_golden.digest(other) != same
    assert fold_golden.digest(replace(state)) == same
    assert fold_golden.canonical(frozenset({"b", "a", "c"})) == ["a", "b", "c"]


def test_writing_refuses_another_fold_of_an_unchanged_log_under_the_same_format() -> None:
    """`--write` must not let the fold change and the number stay."""
    changed = {**GOLDEN, "logs": {k: dict(v) for k, v in GOLDEN["logs"].items()}}
    name = sorted(changed["logs"])[0]
    changed["logs"][name]["courts"] = {**changed["logs"][name]["courts"], "25": "0" * 16}
    assert fold_golden.refusals(GOLDEN, changed) == [f"{name} folds into other courts"]
    assert fold_golden.refusals(GOLDEN, {**changed, "format": GOLDEN["format"] + 1}) == []
    assert fold_golden.refusals(GOLDEN, {**GOLDEN, "shape": "0" * 16}) == [
        "the state's shape changed"
    ]
    # A log recorded anew under the same name is another log: its courts are its own.
    changed["logs"][name]["log"] = "1" * 16
    assert fold_golden.refusals(GOLDEN, changed) == []
    assert fold_golden.refusals(GOLDEN, GOLDEN) == []
