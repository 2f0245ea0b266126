"""Rules data of the court: a rules profile, the map, the roster and the title table.

Loaded from TOML in this folder and checked; every error names its file and entry.
"""

from __future__ import annotations

import copy
import logging
import re
import tomllib
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from config.mapdrawing import DrawingError, validate_drawing
from config.profile_rules import profile_problem
from court.model.profile import RETIRED

CONFIG_DIR: Path = Path(__file__).resolve().parent
log = logging.getLogger("small_council.config")

_PROFILE_NAME = re.compile(r"[a-z0-9_-]+")
_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_REGION_NUMBERS = (1, 2, 3, 4, 5)  # R-7.4: regions 1 North to 5 West
_GENDERS = ("lord", "lady")
# attributes a Noble may have when the game starts; the others are only
# gained in play.
_ROSTER_ATTRIBUTES = (
    "bastard",
    "hard_to_marry",
    "heart_breaker",
    "cruel",
    "immune_to_justice",
)
_IN_PLAY_ATTRIBUTES = ("prince_of_westeros", "gods_cursed")
# A House's arms: the shield's field and its charge, by the names static/lib/arms.js draws.
ARMS_FIELDS = ("plain", "per-pale", "per-fess", "per-bend", "quarterly", "bordure", "chief")
ARMS_CHARGES = (
    "none",
    "roundel",
    "lozenge",
    "mullet",
    "crown",
    "chevron",
    "cross",
    "rose",
    "sun",
    "flame",
    "waves",
    "tower",
)
_MIN_PLAYERS, _MAX_PLAYERS = 3, 6

_PARTS = ("profile", "map", "roster", "titles")
_MAP_FILE = "map.toml"
_ROSTER_FILE = "roster.toml"
_TITLES_FILE = "titles.toml"

_Entry = Mapping[str, Any]


class RulesDataError(ValueError):
    """A rules data file is missing, unreadable or inconsistent."""


def list_profiles(config_dir: Path = CONFIG_DIR) -> list[str]:
    """Names of the loadable rules profiles (`profiles/<name>.toml`), sorted."""
    stems = (path.stem for path in (config_dir / "profiles").glob("*.toml") if path.is_file())
    return sorted(stem for stem in stems if _PROFILE_NAME.fullmatch(stem))


def load_ruleset(profile: str = "default", config_dir: Path = CONFIG_DIR) -> dict[str, Any]:
    """Parse and validate a profile with the map, roster and titles, as plain data."""
    return load_profile(profile, load_shared(config_dir), config_dir)


def load_shared(config_dir: Path = CONFIG_DIR) -> dict[str, Any]:
    """The parts every profile shares, parsed and checked together: the map, the roster and
    the titles."""
    shared = {
        "map": _read_toml(config_dir / _MAP_FILE, _MAP_FILE),
        "roster": _read_toml(config_dir / _ROSTER_FILE, _ROSTER_FILE),
        "titles": _read_toml(config_dir / _TITLES_FILE, _TITLES_FILE),
    }
    _validate_map(shared["map"])
    _validate_roster(shared["roster"])
    _validate_titles(shared["titles"], shared["map"])
    return shared


def load_profile(
    profile: str, shared: Mapping[str, Any], config_dir: Path = CONFIG_DIR
) -> dict[str, Any]:
    """A profile parsed and checked against the shared parts (load_shared): the whole
    ruleset, its own copy of them."""
    if not _PROFILE_NAME.fullmatch(profile):
        raise RulesDataError(f"profile name {profile!r} must match [a-z0-9_-]+")
    profile_path = config_dir / "profiles" / f"{profile}.toml"
    if not profile_path.is_file():
        known = ", ".join(list_profiles(config_dir)) or "none"
        raise RulesDataError(f"profiles/{profile}.toml: no such profile (known: {known})")
    data = {"profile": _read_toml(profile_path, f"profiles/{profile}.toml")}
    if data["profile"].get("name") != profile:
        raise RulesDataError(
            f"profiles/{profile}.toml: name {data['profile'].get('name')!r} must be {profile!r}"
        )
    _drop_retired(data["profile"], f"profiles/{profile}.toml")
    _validate_profile(data["profile"], shared["roster"])
    return {**data, **copy.deepcopy(dict(shared))}


def _drop_retired(profile: dict[str, Any], file: str) -> None:
    """A setting no profile offers any more is ignored, and the log says so once a load."""
    for (section, key), why in RETIRED.items():
        values = profile.get(section)
        if isinstance(values, dict) and key in values:
            del values[key]
            log.info("%s: %s.%s is ignored: %s", file, section, key, why)


def validate_ruleset(data: dict[str, Any]) -> None:
    """Raise RulesDataError at the first inconsistency of a loaded ruleset."""
    missing = [part for part in _PARTS if not isinstance(data.get(part), Mapping)]
    if missing:
        raise RulesDataError(f"ruleset: missing part(s) {', '.join(missing)}")
    _validate_map(data["map"])
    _validate_roster(data["roster"])
    _validate_titles(data["titles"], data["map"])
    _validate_profile(data["profile"], data["roster"])


# ---------------------------------------------------------------- reading


def _read_toml(path: Path, file: str) -> dict[str, Any]:
    try:
        with path.open("rb") as stream:
            return tomllib.load(stream)
    except FileNotFoundError as error:
        raise RulesDataError(f"{file}: file not found") from error
    except tomllib.TOMLDecodeError as error:
        raise RulesDataError(f"{file}: invalid TOML: {error}") from error
    except UnicodeDecodeError as error:
        raise RulesDataError(f"{file}: not UTF-8 text: {error.reason}") from error
    except OSError as error:
        raise RulesDataError(f"{file}: cannot be read: {error.strerror or error}") from error


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _known(value: object, ids: Collection[str]) -> bool:
    """Whether `value` names one of `ids` (a table or a list written where an id belongs
    names none)."""
    return isinstance(value, str) and value in ids


def _fail(file: str, kind: str, entry_id: object, problem: str) -> RulesDataError:
    return RulesDataError(f"{file}: {kind} {entry_id!r}: {problem}")


def _entries(
    part: _Entry, key: str, file: str, kind: str, fields: Iterable[str]
) -> dict[str, _Entry]:
    """The `[[key]]` tables of a part by id, each with its fields; ids must be unique."""
    entries = part.get(key, [])
    if not isinstance(entries, list):
        raise RulesDataError(f"{file}: {key} must be an array of tables")
    by_id: dict[str, _Entry] = {}
    for index, entry in enumerate(entries):
        entry_id = entry.get("id") if isinstance(entry, Mapping) else None
        if not isinstance(entry_id, str) or not entry_id:
            raise RulesDataError(f"{file}: {kind} #{index + 1} has no id")
        missing = [field for field in fields if field not in entry]
        if missing:
            raise _fail(file, kind, entry_id, f"missing {', '.join(missing)}")
        if entry_id in by_id:
            raise _fail(file, kind, entry_id, "duplicate id")
        by_id[entry_id] = entry
    return by_id


# ---------------------------------------------------------------- map


def _validate_map(game_map: _Entry) -> None:
    regions = _entries(game_map, "regions", _MAP_FILE, "region", ("number", "name", "principal"))
    fiefdoms = _entries(game_map, "fiefdoms", _MAP_FILE, "fiefdom", ("name",))
    villages = _entries(game_map, "villages", _MAP_FILE, "village", ("name", "region", "fiefdom"))
    _check_region_numbers(regions)
    for village_id, village in villages.items():
        if not _known(village["region"], regions):
            raise _fail(
                _MAP_FILE,
                "village",
                village_id,
                f"unknown region {village['region']!r}",
            )
        if not _known(village["fiefdom"], fiefdoms):
            raise _fail(
                _MAP_FILE,
                "village",
                village_id,
                f"unknown fiefdom {village['fiefdom']!r}",
            )
    _check_regions_villages(regions, villages)
    _check_fiefdoms_villages(fiefdoms, villages)
    try:
        validate_drawing(game_map)
    except DrawingError as error:
        raise RulesDataError(str(error)) from error


def _check_region_numbers(regions: Mapping[str, _Entry]) -> None:
    seen: dict[int, str] = {}
    for region_id, region in regions.items():
        number = region["number"]
        if not _is_whole(number) or number not in _REGION_NUMBERS:
            raise _fail(_MAP_FILE, "region", region_id, f"number {number!r} is not 1 to 5")
        if number in seen:
            raise _fail(
                _MAP_FILE,
                "region",
                region_id,
                f"number {number} is also {seen[number]!r}",
            )
        seen[number] = region_id
    if len(seen) != len(_REGION_NUMBERS):
        raise RulesDataError(f"{_MAP_FILE}: regions must be numbered 1 to 5, got {sorted(seen)}")


def _check_regions_villages(regions: Mapping[str, _Entry], villages: Mapping[str, _Entry]) -> None:
    for region_id, region in regions.items():
        own = {v_id for v_id, village in villages.items() if village["region"] == region_id}
        if not own:
            raise _fail(_MAP_FILE, "region", region_id, "has no villages")
        if not _known(region["principal"], own):
            raise _fail(
                _MAP_FILE,
                "region",
                region_id,
                f"principal {region['principal']!r} is not one of its villages",
            )


def _check_fiefdoms_villages(
    fiefdoms: Mapping[str, _Entry], villages: Mapping[str, _Entry]
) -> None:
    for fiefdom_id in fiefdoms:
        regions = {v["region"] for v in villages.values() if v["fiefdom"] == fiefdom_id}
        if not regions:
            raise _fail(_MAP_FILE, "fiefdom", fiefdom_id, "has no villages")
        if len(regions) > 1:
            raise _fail(_MAP_FILE, "fiefdom", fiefdom_id, f"spans regions {sorted(regions)}")


# ---------------------------------------------------------------- roster


def _validate_roster(roster: _Entry) -> None:
    houses = _entries(
        roster, "houses", _ROSTER_FILE, "house", ("name", "words", "colours", "arms", "nobles")
    )
    noble_ids: set[str] = set()
    for house_id, house in houses.items():
        _check_colours(house_id, house["colours"])
        _check_arms(house_id, house["arms"])
        nobles = _entries(house, "nobles", _ROSTER_FILE, "noble", ("name", "gender", "attributes"))
        for noble_id, noble in nobles.items():
            if noble_id in noble_ids:
                raise _fail(_ROSTER_FILE, "noble", noble_id, "duplicate id")
            noble_ids.add(noble_id)
            _check_noble(noble_id, noble)


def _check_colours(house_id: str, colours: object) -> None:
    if not (
        isinstance(colours, list)
        and len(colours) == 2
        and all(isinstance(c, str) and _HEX_COLOUR.fullmatch(c) for c in colours)
    ):
        raise _fail(_ROSTER_FILE, "house", house_id, f"colours {colours!r} must be two #rrggbb")


def _check_arms(house_id: str, arms: object) -> None:
    if not isinstance(arms, Mapping) or set(arms) != {"field", "charge"}:
        raise _fail(_ROSTER_FILE, "house", house_id, "arms must be { field = ..., charge = ... }")
    if arms["field"] not in ARMS_FIELDS:
        problem = f"arms field {arms['field']!r} is not one of {', '.join(ARMS_FIELDS)}"
        raise _fail(_ROSTER_FILE, "house", house_id, problem)
    if arms["charge"] not in ARMS_CHARGES:
        problem = f"arms charge {arms['charge']!r} is not one of {', '.join(ARMS_CHARGES)}"
        raise _fail(_ROSTER_FILE, "house", house_id, problem)


def _check_noble(noble_id: str, noble: _Entry) -> None:
    if noble["gender"] not in _GENDERS:
        raise _fail(
            _ROSTER_FILE,
            "noble",
            noble_id,
            f"gender {noble['gender']!r} is not lord or lady",
        )
    attributes = noble["attributes"]
    if not isinstance(attributes, list):
        raise _fail(_ROSTER_FILE, "noble", noble_id, "attributes must be a list")
    for attribute in attributes:
        if attribute in _IN_PLAY_ATTRIBUTES:
            problem = f"attribute {attribute!r} is only gained in play (R-3.9, R-6.2)"
            raise _fail(_ROSTER_FILE, "noble", noble_id, problem)
        if attribute not in _ROSTER_ATTRIBUTES:
            allowed = ", ".join(_ROSTER_ATTRIBUTES)
            problem = f"unknown attribute {attribute!r} (allowed: {allowed})"
            raise _fail(_ROSTER_FILE, "noble", noble_id, problem)


# ---------------------------------------------------------------- titles


def _validate_titles(titles: _Entry, game_map: _Entry) -> None:
    categories = titles.get("categories", {})
    if not isinstance(categories, Mapping):
        raise RulesDataError(f"{_TITLES_FILE}: categories must be a table")
    for category_id, category in categories.items():
        _check_category(category_id, category)
    table = _entries(titles, "titles", _TITLES_FILE, "title", ("name", "category", "vp"))
    for title_id, title in table.items():
        if not _known(title["category"], categories):
            raise _fail(
                _TITLES_FILE,
                "title",
                title_id,
                f"unknown category {title['category']!r}",
            )
        vp = title["vp"]
        if not _is_whole(vp) or vp < 0:
            raise _fail(
                _TITLES_FILE,
                "title",
                title_id,
                f"vp {vp!r} must be a whole number >= 0",
            )
    fiefdoms = [fiefdom["id"] for fiefdom in game_map.get("fiefdoms", [])]
    regions = [region["id"] for region in game_map.get("regions", [])]
    _check_one_title_each(table, "fief", "fiefdom", fiefdoms)
    _check_one_title_each(table, "military", "region", regions)


def _check_category(category_id: str, category: object) -> None:
    if not isinstance(category, Mapping) or not isinstance(category.get("name"), str):
        raise _fail(_TITLES_FILE, "category", category_id, "must have a name")
    slots = category.get("slots")
    if slots is not None and (not _is_whole(slots) or slots < 1):
        raise _fail(_TITLES_FILE, "category", category_id, f"slots {slots!r} must be >= 1")


def _check_one_title_each(
    table: Mapping[str, _Entry], category: str, key: str, targets: Sequence[str]
) -> None:
    """Every title of `category` names a known `key`, and each target has exactly one."""
    counts: Counter[object] = Counter()
    for title_id, title in table.items():
        if title["category"] != category:
            continue
        target = title.get(key)
        if target not in targets:
            raise _fail(_TITLES_FILE, "title", title_id, f"unknown {key} {target!r}")
        counts[target] += 1
    for target in targets:
        if counts[target] != 1:
            raise _fail(
                _TITLES_FILE,
                key,
                target,
                f"needs exactly one {category} title, has {counts[target]}",
            )


# ---------------------------------------------------------------- profile


def _validate_profile(profile: _Entry, roster: _Entry) -> None:
    found = profile_problem(profile, roster)
    if found is not None:
        raise RulesDataError(found)
