"""A rules profile against the settings court/model/profile.py declares: the first problem of a
profile (config/rulesdata.py refuses it), and a profile drawn at random from every setting's
allowed values, for simulated games (R-1.1 to R-8.5: every [D] setting played, not only the
defaults)."""

from __future__ import annotations

import copy
import random
from collections.abc import Collection, Mapping
from typing import Any

from court.model.profile import AS_WRITTEN, SETTINGS

_Entry = Mapping[str, Any]
_MIN_PLAYERS, _MAX_PLAYERS = 3, 6
_ROSTER_FILE = "roster.toml"


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def profile_problem(profile: _Entry, roster: _Entry) -> str | None:
    """The first thing wrong with the profile, naming its file and setting; None if sound."""
    file = f"profiles/{profile.get('name')}.toml"
    players = profile.get("players", {})
    if not isinstance(players, Mapping):
        return f"{file}: [players] must be a table"
    low: Any = players.get("min")
    high: Any = players.get("max")
    if not _is_whole(low) or low < _MIN_PLAYERS:
        return f"{file}: players.min {low!r} must be at least {_MIN_PLAYERS}"
    if not _is_whole(high) or high > _MAX_PLAYERS:
        return f"{file}: players.max {high!r} must be at most {_MAX_PLAYERS}"
    if low > high:
        return f"{file}: players.min {low} is above players.max {high}"
    houses = {house["id"]: house for house in roster.get("houses", [])}
    if len(houses) < high:
        return f"{file}: players.max {high} needs as many houses, {_ROSTER_FILE} has {len(houses)}"
    found = _settings_problem(file, profile)
    if found is not None:
        return found
    if players["first_player_seat"] >= low:
        return (
            f"{file}: players.first_player_seat {players['first_player_seat']} must be a place "
            f"of every game's seat order, below players.min {low} (R-1.1)"
        )
    nobles = {noble["id"] for house in houses.values() for noble in house["nobles"]}
    bonuses = profile.get("elections", {}).get("king_house_bonuses", [])
    if not isinstance(bonuses, list) or not all(isinstance(b, Mapping) for b in bonuses):
        return f"{file}: elections.king_house_bonuses must be an array of tables"
    for bonus in bonuses:
        found = _bonus_problem(file, bonus, houses.keys(), nobles)
        if found is not None:
            return found
    return None


def _settings_problem(file: str, profile: _Entry) -> str | None:
    """Every setting holds one of its allowed values; nothing else is written in a section."""
    declared: dict[str, set[str]] = {}
    for setting in SETTINGS:
        declared.setdefault(setting.section, set()).add(setting.key)
        section = profile.get(setting.section, {} if setting.optional else None)
        if not isinstance(section, Mapping):
            return f"{file}: [{setting.section}] must be a table"
        where, allowed = f"{file}: {setting.section}.{setting.key}", setting.allowed
        if setting.key not in section:
            if setting.optional:
                continue
            return f"{where} is missing ({allowed.rule})"
        value = section[setting.key]
        if not allowed.allows(value):
            return f"{where} {value!r} is not allowed: {allowed.described()} ({allowed.rule})"
    for name, keys in declared.items():
        unknown = sorted(set(profile.get(name, {})) - keys)
        if unknown:
            return f"{file}: {name}.{unknown[0]} is not a setting of [{name}]"
    return None


def _bonus_problem(
    file: str, bonus: _Entry, houses: Collection[str], nobles: Collection[str]
) -> str | None:
    where = f"{file}: elections.king_house_bonuses"
    if not _is_whole(bonus.get("votes")) or bonus["votes"] < 1:
        return f"{where}: votes {bonus.get('votes')!r} must be a whole number >= 1"
    if not isinstance(bonus.get("house"), str) or bonus["house"] not in houses:
        return f"{where}: unknown house {bonus.get('house')!r}"
    if not isinstance(bonus.get("while_in_play"), list):
        return f"{where}: while_in_play must be a list of Nobles (none: [])"
    for noble_id in bonus["while_in_play"]:
        if not isinstance(noble_id, str) or noble_id not in nobles:
            return f"{where}: unknown noble {noble_id!r}"
    return None


# The settings a game's players and the simulator choose themselves, not drawn: the player
# counts the profile allows (a game is created for a number of players) and the variants,
# which simulated runs take in turn (server/tools/simulate.py).
NOT_DRAWN = frozenset({("players", "min"), ("players", "max")})


def random_profile(profile: _Entry, rng: random.Random, players: int) -> dict[str, Any]:
    """`profile` with every setting drawn from its allowed values (a few for wide ranges of
    seconds), named `random`; the First Player's place is drawn among `players` seats."""
    drawn = copy.deepcopy(dict(profile))
    drawn["name"] = "random"
    drawn["description"] = "Every setting drawn from its allowed values (court/model/profile.py)."
    for setting in SETTINGS:
        if (setting.section, setting.key) in NOT_DRAWN:
            continue
        section = drawn.setdefault(setting.section, {})
        if (setting.section, setting.key) == ("players", "first_player_seat"):
            section[setting.key] = rng.randrange(min(players, profile["players"]["min"]))
            continue
        value = rng.choice(list(setting.allowed.choices()))
        if value != AS_WRITTEN:
            section[setting.key] = copy.deepcopy(value)
    return drawn
