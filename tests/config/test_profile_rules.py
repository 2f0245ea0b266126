"""Every setting of a rules profile is declared once, beside the rule it sets, with the values
it may take (court/model/profile.py): a profile holding another value is refused naming the setting
and its rule, and a random profile draws every [D] setting from those values, each of which
a run of draws reaches (R-1.1 to R-8.5)."""

from __future__ import annotations

import copy
import logging
import random
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from config.profile_rules import NOT_DRAWN, random_profile
from config.rulesdata import CONFIG_DIR, RulesDataError, load_ruleset, validate_ruleset
from court.model.profile import AS_WRITTEN, SETTINGS
from court.model.ruleset import Ruleset

PROFILE = "profiles/default.toml"


@pytest.fixture(scope="module")
def loaded() -> dict[str, Any]:
    return load_ruleset()


def refused(ruleset: dict[str, Any]) -> str:
    with pytest.raises(RulesDataError) as err:
        validate_ruleset(ruleset)
    return str(err.value)


@pytest.mark.parametrize(
    ("section", "key", "value", "message"),
    [
        ("titles", "fief_price", 0, "a whole number from 1 to 20 (R-3.6 [D])"),
        ("treasury", "starting", 31, "a whole number from 0 to 30 (R-2.2 [D])"),
        ("marriage", "opposite_gender", "yes", "one of true, false (R-5.1 [D])"),
        ("purchases", "council_seat_sale", "auction", "one of 'sealed_bid', 'none' (R-4.6 [D])"),
        ("purchases", "sept_cost", 5, "one of 4 (R-4.6 [R])"),
        ("marriage", "min_players_for_alliance", 5, "one of 4, 3 (R-4.7 [R], 3 a variant)"),
        ("night_watch", "max_brothers", 0, "(R-8.3 [D])"),
        ("elections", "king_min_votes", True, "a whole number from 0 to 6 (R-7.8 [D])"),
        ("deadlines", "ballot", 7 * 24 * 3600 + 1, "(R-4.3 [D])"),
    ],
)
def test_a_setting_outside_its_allowed_values_is_refused_naming_it_and_its_rule(
    loaded: dict[str, Any], section: str, key: str, value: Any, message: str
) -> None:
    ruleset = copy.deepcopy(loaded)
    ruleset["profile"][section][key] = value
    text = refused(ruleset)
    assert text.startswith(f"{PROFILE}: {section}.{key} {value!r} is not allowed: ")
    assert text.endswith(message)


def test_a_key_that_is_no_setting_and_a_missing_setting_are_refused(
    loaded: dict[str, Any],
) -> None:
    ruleset = copy.deepcopy(loaded)
    ruleset["profile"]["titles"]["fief_discount"] = 2
    assert refused(ruleset) == f"{PROFILE}: titles.fief_discount is not a setting of [titles]"
    ruleset = copy.deepcopy(loaded)
    del ruleset["profile"]["victory"]["all_qualifying_win"]
    assert refused(ruleset) == f"{PROFILE}: victory.all_qualifying_win is missing (R-4.7 [D])"


def test_the_first_player_sits_at_a_place_every_game_has(loaded: dict[str, Any]) -> None:
    """R-1.1 [D]: a profile for 3 to 6 players starts the marker at place 0, 1 or 2."""
    ruleset = copy.deepcopy(loaded)
    ruleset["profile"]["players"]["first_player_seat"] = 3
    assert "below players.min 3 (R-1.1)" in refused(ruleset)


def test_every_setting_of_the_default_profile_is_declared_and_allowed(
    loaded: dict[str, Any],
) -> None:
    declared = {(s.section, s.key) for s in SETTINGS}
    written = {
        (section, key)
        for section, values in loaded["profile"].items()
        if isinstance(values, dict)
        for key in values
    }
    assert written == declared
    validate_ruleset(loaded)


def test_random_profiles_are_valid_and_draw_every_value_of_every_setting(
    loaded: dict[str, Any],
) -> None:
    """Each of 400 drawn profiles loads; over them every [D] setting (and variant) takes each
    value it may be drawn at, so no setting stays at its default in simulated games."""
    rng = random.Random(7)
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)
    for n in range(400):
        players = 3 + n % 4
        profile = random_profile(loaded["profile"], rng, players)
        ruleset = {**loaded, "profile": profile}
        validate_ruleset(ruleset)
        Ruleset.from_dict(ruleset)
        assert profile["players"]["first_player_seat"] < players
        for setting in SETTINGS:
            value = profile[setting.section].get(setting.key)
            seen[(setting.section, setting.key)].add(repr(value))
    for setting in SETTINGS:
        where = (setting.section, setting.key)
        if where in NOT_DRAWN or where == ("players", "first_player_seat"):
            continue
        choices = setting.allowed.choices()
        wanted = {
            repr(loaded["profile"][setting.section].get(setting.key))
            if value == AS_WRITTEN
            else repr(value)
            for value in choices
        }
        assert seen[where] == wanted, where
    assert seen[("players", "first_player_seat")] == {"0", "1", "2"}


def test_a_hand_election_needing_five_council_members_is_refused_with_the_reason(
    loaded: dict[str, Any],
) -> None:
    """R-7.7: while the Hand's seat is free, at most the four Masters sit on the Small
    Council, so a Hand election needing 5 (or more) could never be held: 1 to 4 only."""
    for value in (5, 6):
        ruleset = copy.deepcopy(loaded)
        ruleset["profile"]["elections"]["hand_min_council"] = value
        text = refused(ruleset)
        assert text.startswith(f"{PROFILE}: elections.hand_min_council {value} is not allowed")
        assert "from 1 to 4" in text and "four Masters" in text and "(R-7.7 [D])" in text
    assert {s.key: s.allowed.choices() for s in SETTINGS}["hand_min_council"] == range(1, 5)


def test_a_profile_still_carrying_the_odd_gold_dragon_setting_loads_without_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """R-6.2: 2 GD a Sept always splits evenly, so no profile offers an odd Gold Dragon's
    setting any more; a profile written before still loads, the setting ignored with one line
    in the log, and so does a game whose first event recorded it."""
    folder = tmp_path / "config"
    shutil.copytree(CONFIG_DIR, folder)
    written = folder / "profiles" / "default.toml"
    text = written.read_text()
    assert "odd_pillage_to_protector" not in text
    written.write_text(
        text.replace("[decrees]\n", "[decrees]\nodd_pillage_to_protector = true\n", 1)
    )
    with caplog.at_level(logging.INFO, logger="small_council.config"):
        ruleset = load_ruleset("default", folder)
    assert "odd_pillage_to_protector" not in ruleset["profile"]["decrees"]
    said = [r.getMessage() for r in caplog.records if "odd_pillage_to_protector" in r.getMessage()]
    assert len(said) == 1 and "ignored" in said[0]
    assert "odd_pillage_to_protector" not in {s.key for s in SETTINGS}
    recorded = copy.deepcopy(ruleset)
    recorded["profile"]["decrees"]["odd_pillage_to_protector"] = False
    assert Ruleset.from_dict(recorded).profile.decrees.pillage_per_sept == 2
