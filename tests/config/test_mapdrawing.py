"""Tests of the map's drawing in config/map.toml: every region drawn as a polygon, every
village at its own point inside its region, checked when the rules data loads."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from config.mapdrawing import drawing, inside
from config.rulesdata import RulesDataError, load_ruleset, validate_ruleset

Ruleset = dict[str, Any]


@pytest.fixture(scope="module")
def loaded() -> Ruleset:
    return load_ruleset()


def _entry(ruleset: Ruleset, part: str, entry_id: str) -> dict[str, Any]:
    return next(e for e in ruleset["map"][part] if e["id"] == entry_id)


def test_every_region_and_village_of_the_map_is_drawn(loaded: Ruleset) -> None:
    drawn = drawing(loaded["map"])
    assert {r["id"] for r in drawn["regions"]} == {r["id"] for r in loaded["map"]["regions"]}
    assert {v["id"] for v in drawn["villages"]} == {v["id"] for v in loaded["map"]["villages"]}
    assert len(drawn["fiefdoms"]) == len(loaded["map"]["fiefdoms"])


def test_each_village_stands_inside_its_own_region_and_no_other(loaded: Ruleset) -> None:
    drawn = drawing(loaded["map"])
    outlines = {r["id"]: [tuple(p) for p in r["outline"]] for r in drawn["regions"]}
    region_of = {v["id"]: v["region"] for v in loaded["map"]["villages"]}
    for village in drawn["villages"]:
        at = tuple(village["at"])
        holding = [rid for rid, outline in outlines.items() if inside(at, outline)]
        assert holding == [region_of[village["id"]]], village["id"]


def test_point_in_polygon_tells_inside_from_outside() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    assert inside((5.0, 5.0), square)
    assert not inside((15.0, 5.0), square)
    assert not inside((5.0, -1.0), square)


def _set(part: str, entry_id: str, key: str, value: object) -> Callable[[Ruleset], None]:
    def corrupt(ruleset: Ruleset) -> None:
        _entry(ruleset, part, entry_id)[key] = value

    return corrupt


def _drop_drawing(ruleset: Ruleset) -> None:
    del ruleset["map"]["drawing"]


def _no_width(ruleset: Ruleset) -> None:
    ruleset["map"]["drawing"]["width"] = 0


CORRUPTIONS = [
    (_drop_drawing, "map.toml: [drawing] with width and height is missing"),
    (_no_width, "map.toml: drawing width must be a number 1 to 2000"),
    (_set("regions", "north", "outline", [[0, 0], [10, 0]]), "region 'north' needs an outline"),
    (_set("regions", "east", "label", [900, 10]), "region 'east' label [900, 10] lies outside"),
    (_set("regions", "west", "label", "here"), "region 'west' label must be a point"),
    (_set("villages", "rosby", "at", [50, 50]), "village 'rosby' at [50.0, 50.0] lies outside"),
    (_set("villages", "rosby", "at", [300, 385]), "village 'rosby' stands on another village"),
    (_set("villages", "pyke", "at", [True, 3]), "village 'pyke' at [True, 3] lies outside"),
]


@pytest.mark.parametrize(("corrupt", "message"), CORRUPTIONS)
def test_a_map_drawn_wrong_is_refused_when_the_rules_data_loads(
    loaded: Ruleset, corrupt: Callable[[Ruleset], None], message: str
) -> None:
    ruleset = copy.deepcopy(loaded)
    corrupt(ruleset)
    with pytest.raises(RulesDataError) as refused:
        validate_ruleset(ruleset)
    assert message in str(refused.value)
