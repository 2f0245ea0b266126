"""Tests of the rules data in config/: the default map, roster, titles and profile,
and the loader's validation of every way those files can contradict each other."""

from __future__ import annotations

import copy
import json
import re
import shutil
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from config.rulesdata import (
    CONFIG_DIR,
    RulesDataError,
    list_profiles,
    load_ruleset,
    validate_ruleset,
)
from tests.config.contrast import contrast

Ruleset = dict[str, Any]
REQUIRED_HOUSES = (
    "stark",
    "lannister",
    "baratheon",
    "targaryen",
    "tyrell",
    "martell",
    "greyjoy",
)
STARTING_ATTRIBUTES = (
    "bastard",
    "hard_to_marry",
    "heart_breaker",
    "cruel",
    "immune_to_justice",
)
KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@pytest.fixture(scope="module")
def loaded() -> Ruleset:
    return load_ruleset()


@pytest.fixture
def ruleset(loaded: Ruleset) -> Ruleset:
    """A private copy of the default ruleset that a test may corrupt."""
    return copy.deepcopy(loaded)


def _by_id(entries: list[dict[str, Any]], entry_id: str) -> dict[str, Any]:
    return next(entry for entry in entries if entry["id"] == entry_id)


def _nobles(ruleset: Ruleset) -> list[dict[str, Any]]:
    return [noble for house in ruleset["roster"]["houses"] for noble in house["nobles"]]


def _house(ruleset: Ruleset, house_id: str) -> dict[str, Any]:
    return _by_id(ruleset["roster"]["houses"], house_id)


def _villages_of(ruleset: Ruleset, key: str, value: str) -> list[dict[str, Any]]:
    return [village for village in ruleset["map"]["villages"] if village[key] == value]


def _title(ruleset: Ruleset, title_id: str) -> dict[str, Any]:
    return _by_id(ruleset["titles"]["titles"], title_id)


def _copy_config(tmp_path: Path) -> Path:
    config_dir = tmp_path / "config"
    (config_dir / "profiles").mkdir(parents=True)
    for file in ("map.toml", "roster.toml", "titles.toml", "profiles/default.toml"):
        shutil.copyfile(CONFIG_DIR / file, config_dir / file)
    return config_dir


def _write_profile(path: Path, name: str, max_players: int = 6) -> None:
    text = (CONFIG_DIR / "profiles" / "default.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^name = ".*"$', f'name = "{name}"', text)
    text = re.sub(r"(?m)^max = 6 ", f"max = {max_players} ", text)
    path.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------- loading


def test_default_ruleset_loads_and_is_json_serialisable(loaded: Ruleset) -> None:
    assert set(loaded) == {"profile", "map", "roster", "titles"}
    assert json.loads(json.dumps(loaded)) == loaded


def test_each_part_is_exactly_the_parsed_toml_file(loaded: Ruleset) -> None:
    files = {
        "profile": "profiles/default.toml",
        "map": "map.toml",
        "roster": "roster.toml",
        "titles": "titles.toml",
    }
    for part, file in files.items():
        assert loaded[part] == tomllib.loads((CONFIG_DIR / file).read_text(encoding="utf-8"))


def test_default_profile_is_listed() -> None:
    assert "default" in list_profiles()


def test_unknown_profile_is_refused() -> None:
    with pytest.raises(RulesDataError) as refused:
        load_ruleset("no-such-profile")
    message = "profiles/no-such-profile.toml: no such profile (known: default)"
    assert message in str(refused.value)


@pytest.mark.parametrize("name", ["../evil", "evil.toml", "Evil", "", "profiles/evil", "ev il"])
def test_profile_name_with_path_characters_is_refused(tmp_path: Path, name: str) -> None:
    config_dir = _copy_config(tmp_path)
    # A valid profile sits where a path trick would reach it, so only the name check refuses.
    for where in (config_dir / "evil.toml", config_dir / "profiles" / "evil.toml"):
        _write_profile(where, name)
    with pytest.raises(RulesDataError, match=re.escape("[a-z0-9_-]+")):
        load_ruleset(name, config_dir)


def test_list_profiles_names_every_profile_file_sorted(tmp_path: Path) -> None:
    config_dir = _copy_config(tmp_path)
    _write_profile(config_dir / "profiles" / "quick_3p.toml", "quick_3p", max_players=3)
    (config_dir / "profiles" / "README.md").write_text("not a profile", encoding="utf-8")
    _write_profile(config_dir / "profiles" / "Not Loadable.toml", "Not Loadable")
    assert list_profiles(config_dir) == ["default", "quick_3p"]
    assert load_ruleset("quick_3p", config_dir)["profile"]["players"]["max"] == 3


def test_profile_whose_name_differs_from_its_file_is_refused(tmp_path: Path) -> None:
    config_dir = _copy_config(tmp_path)
    _write_profile(config_dir / "profiles" / "copy.toml", "default")
    with pytest.raises(RulesDataError, match=re.escape("profiles/copy.toml: name 'default'")):
        load_ruleset("copy", config_dir)


def test_loading_validates_the_files(tmp_path: Path) -> None:
    config_dir = _copy_config(tmp_path)
    roster = config_dir / "roster.toml"
    roster.write_text(roster.read_text("utf-8").replace('"lady"', '"maid"', 1), "utf-8")
    with pytest.raises(RulesDataError) as refused:
        load_ruleset("default", config_dir)
    assert "roster.toml: noble 'catelyn-stark': gender 'maid'" in str(refused.value)


def test_invalid_toml_is_reported_with_its_file(tmp_path: Path) -> None:
    config_dir = _copy_config(tmp_path)
    (config_dir / "titles.toml").write_text("[[titles]\nid = ", encoding="utf-8")
    with pytest.raises(RulesDataError, match=re.escape("titles.toml: invalid TOML")):
        load_ruleset("default", config_dir)


def test_missing_data_file_is_reported_with_its_name(tmp_path: Path) -> None:
    config_dir = _copy_config(tmp_path)
    (config_dir / "roster.toml").unlink()
    with pytest.raises(RulesDataError, match=re.escape("roster.toml: file not found")):
        load_ruleset("default", config_dir)


# ---------------------------------------------------------------- the default map


def test_regions_are_numbered_one_to_five_in_election_order(loaded: Ruleset) -> None:
    """R-7.4: Warden elections run from region 1 North to 5 West."""
    numbers = {region["id"]: region["number"] for region in loaded["map"]["regions"]}
    assert numbers == {"north": 1, "east": 2, "crownlands": 3, "south": 4, "west": 5}


def test_every_region_has_four_to_six_villages_and_its_principal_among_them(
    loaded: Ruleset,
) -> None:
    """R-7.4: the Principal village is worth one more vote in its region."""
    for region in loaded["map"]["regions"]:
        villages = {v["id"] for v in _villages_of(loaded, "region", region["id"])}
        assert 4 <= len(villages) <= 6, region["id"]
        assert region["principal"] in villages, region["id"]


def test_region_with_four_villages_exists_for_the_worked_example(
    loaded: Ruleset,
) -> None:
    """R-7.4: four villages including the Principal give 4 + 1 = 5 votes."""
    for region in loaded["map"]["regions"]:
        villages = _villages_of(loaded, "region", region["id"])
        if len(villages) == 4:
            principal_bonus = sum(v["id"] == region["principal"] for v in villages)
            assert len(villages) + principal_bonus == 5
            return
    pytest.fail("no region has exactly four villages")


def test_eight_fiefdoms_each_with_a_fief_title(loaded: Ruleset) -> None:
    """R-3.1: one Fief title per Fiefdom, eight on the default map."""
    fiefdoms = [fiefdom["id"] for fiefdom in loaded["map"]["fiefdoms"]]
    assert len(fiefdoms) == 8
    fief_titles = {
        title["fiefdom"]: title
        for title in loaded["titles"]["titles"]
        if title["category"] == "fief"
    }
    assert sorted(fief_titles) == sorted(fiefdoms)
    for fiefdom_id, title in fief_titles.items():
        assert title["id"] == f"fief-{fiefdom_id}"
        assert title["name"].startswith("Lord of ")


def test_every_fiefdom_groups_two_to_four_villages_of_one_region(
    loaded: Ruleset,
) -> None:
    for fiefdom in loaded["map"]["fiefdoms"]:
        villages = _villages_of(loaded, "fiefdom", fiefdom["id"])
        assert 2 <= len(villages) <= 4, fiefdom["id"]
        assert len({v["region"] for v in villages}) == 1, fiefdom["id"]


def test_map_ids_are_kebab_case(loaded: Ruleset) -> None:
    for key in ("regions", "fiefdoms", "villages"):
        for entry in loaded["map"][key]:
            assert KEBAB.fullmatch(entry["id"]), entry["id"]


# ---------------------------------------------------------------- the default roster


def test_roster_has_the_seven_houses_of_the_game(loaded: Ruleset) -> None:
    house_ids = [house["id"] for house in loaded["roster"]["houses"]]
    assert set(REQUIRED_HOUSES) <= set(house_ids)
    assert len(house_ids) >= loaded["profile"]["players"]["max"]


def test_every_house_has_five_lords_and_three_ladies(loaded: Ruleset) -> None:
    """R-1.2: the default roster gives every House 5 Lords and 3 Ladies."""
    for house in loaded["roster"]["houses"]:
        genders = Counter(noble["gender"] for noble in house["nobles"])
        assert genders == {"lord": 5, "lady": 3}, house["id"]


def test_house_tyrell_has_the_ladies_of_the_king_bonus(loaded: Ruleset) -> None:
    """R-7.8: the default Tyrell bonus counts Margaery and Olenna."""
    ladies = {n["id"] for n in _house(loaded, "tyrell")["nobles"] if n["gender"] == "lady"}
    assert {"margaery-tyrell", "olenna-tyrell"} <= ladies


def test_noble_ids_are_the_kebab_case_name_with_the_house_as_surname(
    loaded: Ruleset,
) -> None:
    """A bastard keeps his bastard surname (jon-snow) and no one else may."""
    for house in loaded["roster"]["houses"]:
        for noble in house["nobles"]:
            assert noble["id"] == noble["name"].lower().replace(" ", "-")
            surname_is_house = noble["id"].endswith(f"-{house['id']}")
            assert surname_is_house != ("bastard" in noble["attributes"]), noble["id"]


def test_every_starting_attribute_is_carried_by_several_nobles(loaded: Ruleset) -> None:
    """R-1.3: each attribute the court reads can be exercised by the roster."""
    carried = Counter(a for noble in _nobles(loaded) for a in noble["attributes"])
    assert set(carried) == set(STARTING_ATTRIBUTES)
    assert all(carried[attribute] >= 3 for attribute in STARTING_ATTRIBUTES), carried
    assert "bastard" in _by_id(_house(loaded, "stark")["nobles"], "jon-snow")["attributes"]


def test_every_house_has_two_plain_nobles_and_a_marriageable_lord_and_lady(
    loaded: Ruleset,
) -> None:
    """R-5.1: a bastard may not marry, so each House needs a Lord and a Lady who can."""
    for house in loaded["roster"]["houses"]:
        nobles = house["nobles"]
        assert sum(not noble["attributes"] for noble in nobles) >= 2, house["id"]
        for gender in ("lord", "lady"):
            assert any(
                n["gender"] == gender and "bastard" not in n["attributes"] for n in nobles
            ), (house["id"], gender)


def test_every_house_has_words_and_colours_readable_on_each_other(loaded: Ruleset) -> None:
    for house in loaded["roster"]["houses"]:
        primary, secondary = house["colours"]
        assert contrast(primary, secondary) >= 4.5, house["id"]
        assert house["words"], house["id"]


# ---------------------------------------------------------------- the title table


def test_title_categories_have_the_slot_limits_of_r_3_2(loaded: Ruleset) -> None:
    """R-3.2: at most 2 Fief, 1 Military and 1 High title; Royal titles unlimited."""
    categories = loaded["titles"]["categories"]
    slots = {category_id: c.get("slots") for category_id, c in categories.items()}
    assert slots == {
        "fief": 2,
        "military": 1,
        "high": 1,
        "royal": None,
        "mother_of_dragons": None,
    }


@pytest.mark.parametrize(
    ("category", "title_ids"),
    [
        (
            "military",
            [
                "warden-north",
                "warden-east",
                "warden-crownlands",
                "warden-south",
                "warden-west",
            ],
        ),
        (
            "high",
            [
                "hand",
                "master-of-coin",
                "master-of-laws",
                "master-of-ships",
                "master-of-whisperers",
                "lord-commander",
            ],
        ),
        ("royal", ["king", "queen", "protector"]),
        ("mother_of_dragons", ["mother-of-dragons"]),
    ],
)
def test_non_fief_titles_are_those_of_r_3_1(
    loaded: Ruleset, category: str, title_ids: list[str]
) -> None:
    """R-3.1: the Military, High, Royal and Mother of Dragons titles."""
    in_category = [t["id"] for t in loaded["titles"]["titles"] if t["category"] == category]
    assert in_category == title_ids


def test_each_warden_title_names_its_region(loaded: Ruleset) -> None:
    assert _title(loaded, "warden-north")["name"] == "Warden of the North"
    for region in loaded["map"]["regions"]:
        assert _title(loaded, f"warden-{region['id']}")["region"] == region["id"]


def test_victory_points_follow_r_3_7(loaded: Ruleset) -> None:
    """R-3.7: Lord Commander, each Fief title, King and Hand 1 VP; the rest 0."""
    scoring = {"lord-commander", "king", "hand"}
    for title in loaded["titles"]["titles"]:
        expected = 1 if title["category"] == "fief" or title["id"] in scoring else 0
        assert title["vp"] == expected, title["id"]


def test_small_council_is_the_hand_and_four_masters(loaded: Ruleset) -> None:
    """R-3.5: the Hand and the four Masters sit on the Small Council."""
    titles = loaded["titles"]["titles"]
    council = {t["id"] for t in titles if t.get("council")}
    masters = {t["id"] for t in titles if t.get("master")}
    assert masters == {
        "master-of-coin",
        "master-of-laws",
        "master-of-ships",
        "master-of-whisperers",
    }
    assert council == masters | {"hand"}
    assert [t["id"] for t in titles if t.get("nights_watch")] == ["lord-commander"]


# ---------------------------------------------------------------- validation


Corruption = Callable[[Ruleset], None]
Locator = Callable[[Ruleset], dict[str, Any]]


def _at(part: str, key: str, entry_id: str) -> Locator:
    """Locate the entry `entry_id` of the list `key` in `part` ("map", "villages", ...)."""
    return lambda ruleset: _by_id(ruleset[part][key], entry_id)


def _noble(noble_id: str) -> Locator:
    return lambda ruleset: _by_id(_nobles(ruleset), noble_id)


def _players(ruleset: Ruleset) -> dict[str, Any]:
    return ruleset["profile"]["players"]


def _tyrell_bonus(ruleset: Ruleset) -> dict[str, Any]:
    return ruleset["profile"]["elections"]["king_house_bonuses"][0]


def _set(locate: Locator, **values: Any) -> Corruption:
    return lambda ruleset: locate(ruleset).update(values)


def _drop(locate: Locator, key: str) -> Corruption:
    return lambda ruleset: locate(ruleset).pop(key)


def _remove(part: str, key: str, entry_id: str) -> Corruption:
    return lambda ruleset: ruleset[part][key].remove(_by_id(ruleset[part][key], entry_id))


def _add(part: str, key: str, entry: dict[str, Any]) -> Corruption:
    return lambda ruleset: ruleset[part][key].append(dict(entry))


def _empty_region(ruleset: Ruleset) -> None:
    for village in _villages_of(ruleset, "region", "crownlands"):
        village["region"] = "east"


def _drop_houses(ruleset: Ruleset) -> None:
    _remove("roster", "houses", "stark")(ruleset)
    _remove("roster", "houses", "greyjoy")(ruleset)


def _case(what: str, corrupt: Corruption, message: str) -> Any:
    return pytest.param(corrupt, message, id=what)


MAP, ROSTER, TITLES, PROFILE = (
    "map.toml",
    "roster.toml",
    "titles.toml",
    "profiles/default.toml",
)
BONUS = f"{PROFILE}: elections.king_house_bonuses"

CORRUPTIONS = [
    # (what is wrong, how to make it so, the message it must give: file and entry)
    _case(
        "duplicate region id",
        _set(_at("map", "regions", "east"), id="north"),
        f"{MAP}: region 'north': duplicate id",
    ),
    _case(
        "duplicate village id",
        _set(_at("map", "villages", "rosby"), id="duskendale"),
        f"{MAP}: village 'duskendale': duplicate id",
    ),
    _case(
        "duplicate fiefdom id",
        _set(_at("map", "fiefdoms", "pyke"), id="riverrun"),
        f"{MAP}: fiefdom 'riverrun': duplicate id",
    ),
    _case(
        "duplicate house id",
        _set(_at("roster", "houses", "greyjoy"), id="stark"),
        f"{ROSTER}: house 'stark': duplicate id",
    ),
    _case(
        "duplicate noble id across houses",
        _set(_noble("tywin-lannister"), id="eddard-stark"),
        f"{ROSTER}: noble 'eddard-stark': duplicate id",
    ),
    _case(
        "duplicate noble id in a house",
        _set(_noble("robb-stark"), id="eddard-stark"),
        f"{ROSTER}: noble 'eddard-stark': duplicate id",
    ),
    _case(
        "duplicate title id",
        _set(_at("titles", "titles", "queen"), id="king"),
        f"{TITLES}: title 'king': duplicate id",
    ),
    _case(
        "village in unknown region",
        _set(_at("map", "villages", "rosby"), region="essos"),
        f"{MAP}: village 'rosby': unknown region 'essos'",
    ),
    _case(
        "village in unknown fiefdom",
        _set(_at("map", "villages", "rosby"), fiefdom="braavos"),
        f"{MAP}: village 'rosby': unknown fiefdom 'braavos'",
    ),
    _case(
        "village without region",
        _drop(_at("map", "villages", "gulltown"), "region"),
        f"{MAP}: village 'gulltown': missing region",
    ),
    _case(
        "principal of another region",
        _set(_at("map", "regions", "north"), principal="riverrun"),
        f"{MAP}: region 'north': principal 'riverrun'",
    ),
    _case(
        "principal unknown",
        _set(_at("map", "regions", "west"), principal="meereen"),
        f"{MAP}: region 'west': principal 'meereen'",
    ),
    _case(
        "region without villages",
        _empty_region,
        f"{MAP}: region 'crownlands': has no villages",
    ),
    _case(
        "fiefdom without villages",
        _add("map", "fiefdoms", {"id": "the-wall", "name": "Wall"}),
        f"{MAP}: fiefdom 'the-wall': has no villages",
    ),
    _case(
        "fiefdom across regions",
        _set(_at("map", "villages", "the-eyrie"), fiefdom="winterfell"),
        f"{MAP}: fiefdom 'winterfell': spans regions ['east', 'north']",
    ),
    _case(
        "region number 6",
        _set(_at("map", "regions", "west"), number=6),
        f"{MAP}: region 'west': number 6",
    ),
    _case(
        "region number twice",
        _set(_at("map", "regions", "west"), number=4),
        f"{MAP}: region 'west': number 4",
    ),
    _case(
        "region number as text",
        _set(_at("map", "regions", "south"), number="4"),
        f"{MAP}: region 'south': number '4'",
    ),
    _case(
        "region number not whole",
        _set(_at("map", "regions", "south"), number=4.0),
        f"{MAP}: region 'south': number 4.0",
    ),
    _case(
        "only four regions",
        _remove("map", "regions", "west"),
        f"{MAP}: regions must be numbered 1 to 5",
    ),
    _case(
        "unknown gender",
        _set(_noble("arya-stark"), gender="knight"),
        f"{ROSTER}: noble 'arya-stark': gender 'knight'",
    ),
    _case(
        "unknown attribute",
        _set(_noble("mace-tyrell"), attributes=["drunk"]),
        f"{ROSTER}: noble 'mace-tyrell': unknown attribute 'drunk'",
    ),
    _case(
        "attribute gained only in play",
        _set(_noble("mace-tyrell"), attributes=["gods_cursed"]),
        f"{ROSTER}: noble 'mace-tyrell': attribute 'gods_cursed' is only gained in play",
    ),
    _case(
        "arms missing",
        _drop(_at("roster", "houses", "stark"), "arms"),
        f"{ROSTER}: house 'stark': missing arms",
    ),
    _case(
        "arms not a table of field and charge",
        _set(_at("roster", "houses", "stark"), arms={"field": "plain"}),
        f"{ROSTER}: house 'stark': arms must be {{ field = ..., charge = ... }}",
    ),
    _case(
        "arms of an unknown field",
        _set(_at("roster", "houses", "stark"), arms={"field": "gyronny", "charge": "rose"}),
        f"{ROSTER}: house 'stark': arms field 'gyronny' is not one of",
    ),
    _case(
        "arms of an unknown charge",
        _set(_at("roster", "houses", "stark"), arms={"field": "plain", "charge": "dragon"}),
        f"{ROSTER}: house 'stark': arms charge 'dragon' is not one of",
    ),
    _case(
        "colour not hex",
        _set(_at("roster", "houses", "martell"), colours=["orange", "#fff"]),
        f"{ROSTER}: house 'martell': colours",
    ),
    _case(
        "fief title missing",
        _remove("titles", "titles", "fief-pyke"),
        f"{TITLES}: fiefdom 'pyke': needs exactly one fief title, has 0",
    ),
    _case(
        "fief title of unknown fiefdom",
        _set(_at("titles", "titles", "fief-pyke"), fiefdom="volantis"),
        f"{TITLES}: title 'fief-pyke': unknown fiefdom 'volantis'",
    ),
    _case(
        "two fief titles for a fiefdom",
        _set(_at("titles", "titles", "fief-pyke"), fiefdom="riverrun"),
        f"{TITLES}: fiefdom 'riverrun': needs exactly one fief title, has 2",
    ),
    _case(
        "warden title missing",
        _remove("titles", "titles", "warden-east"),
        f"{TITLES}: region 'east': needs exactly one military title, has 0",
    ),
    _case(
        "warden of unknown region",
        _set(_at("titles", "titles", "warden-east"), region="essos"),
        f"{TITLES}: title 'warden-east': unknown region 'essos'",
    ),
    _case(
        "unknown category",
        _set(_at("titles", "titles", "queen"), category="consort"),
        f"{TITLES}: title 'queen': unknown category 'consort'",
    ),
    _case(
        "negative vp",
        _set(_at("titles", "titles", "hand"), vp=-1),
        f"{TITLES}: title 'hand': vp -1",
    ),
    _case(
        "category without name",
        _drop(lambda r: r["titles"]["categories"]["royal"], "name"),
        f"{TITLES}: category 'royal': must have a name",
    ),
    _case("too few players", _set(_players, min=2), f"{PROFILE}: players.min 2"),
    _case("too many players", _set(_players, max=7), f"{PROFILE}: players.max 7"),
    _case(
        "min above max",
        _set(_players, min=5, max=4),
        f"{PROFILE}: players.min 5 is above",
    ),
    _case(
        "bonus for unknown house",
        _set(_tyrell_bonus, house="bolton"),
        f"{BONUS}: unknown house 'bolton'",
    ),
    _case(
        "bonus on unknown noble",
        _set(_tyrell_bonus, while_in_play=["sansa-tyrell"]),
        f"{BONUS}: unknown noble 'sansa-tyrell'",
    ),
    _case(
        "fewer houses than players",
        _drop_houses,
        f"{PROFILE}: players.max 6 needs as many houses",
    ),
]


@pytest.mark.parametrize(("corrupt", "message"), CORRUPTIONS)
def test_corrupted_ruleset_is_refused_naming_the_bad_entry(
    ruleset: Ruleset, corrupt: Corruption, message: str
) -> None:
    corrupt(ruleset)
    with pytest.raises(RulesDataError) as refused:
        validate_ruleset(ruleset)
    assert message in str(refused.value)


def test_every_house_bears_arms_the_pages_can_draw(loaded: Ruleset) -> None:
    """Each House's arms are a field and a charge named in config/rulesdata.py, and
    static/lib/arms.js draws every name of both sets."""
    from config.rulesdata import ARMS_CHARGES, ARMS_FIELDS

    drawn = (CONFIG_DIR.parent / "static" / "lib" / "arms.js").read_text(encoding="utf-8")
    for name in (*ARMS_FIELDS, *ARMS_CHARGES):
        assert re.search(rf'^\s+"{re.escape(name)}": ', drawn, re.MULTILINE), name
    arms = [(h["arms"]["field"], h["arms"]["charge"]) for h in loaded["roster"]["houses"]]
    assert all(field in ARMS_FIELDS and charge in ARMS_CHARGES for field, charge in arms)
    assert len(set(arms)) == len(arms), "two Houses bear the same arms"


# ---------------------------------------------------------------- any value of another kind

MISSING = object()
# A value of every kind TOML has, and none (the key taken out).
OTHER_KINDS = ("x", 5, -1, 1.5, True, [], [1], {}, {"a": 1}, MISSING)
KING_BONUS = {"house": "tyrell", "votes": 2, "while_in_play": ["margaery-tyrell"]}


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value in a part of the ruleset, nested ones too; of an array, its
    first two (the others have the same shape)."""
    items = node.items() if isinstance(node, dict) else enumerate(node[:2])
    found = []
    for key, value in items:
        found.append((*path, key))
        if isinstance(value, dict | list):
            found += _places(value, (*path, key))
    return found


def _changed(ruleset: Ruleset, part: str, path: tuple[Any, ...], value: object) -> Ruleset:
    changed = {**ruleset, part: copy.deepcopy(ruleset[part])}  # the others are only read
    node = changed[part]
    for key in path[:-1]:
        node = node[key]
    if value is not MISSING:
        node[path[-1]] = value
    elif isinstance(node, dict):
        del node[path[-1]]
    return changed


@pytest.mark.parametrize("part", ["profile", "map", "roster", "titles"])
def test_any_value_of_another_kind_is_refused_as_a_data_error_or_read_by_the_engine(
    loaded: Ruleset, part: str
) -> None:
    """An operator's file with one value of the wrong kind anywhere (a table where a number
    belongs, a list where an id does, a key left out) is refused with a RulesDataError, or
    accepted as a ruleset the engine reads: never another exception, which a route would
    answer with a 500."""
    from court.model.ruleset import Ruleset as EngineRuleset

    base = copy.deepcopy(loaded)
    base["profile"].setdefault("elections", {})["king_house_bonuses"] = [KING_BONUS]
    validate_ruleset(base)
    crashed = []
    for path in _places(base[part]):
        if part == "profile" and path == ("name",):
            continue  # the loader holds the name to the file's (test above)
        for value in OTHER_KINDS:
            changed = _changed(base, part, path, value)
            try:
                validate_ruleset(changed)
                EngineRuleset.from_dict(changed)
            except RulesDataError:
                continue
            except Exception as exc:
                crashed.append((path, value, f"{type(exc).__name__}: {exc}"))
    assert crashed == []
