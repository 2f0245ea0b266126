"""A rules profile: every setting of the court rules, each declared beside the rule it sets and
the values it may take ([D] our choices where RULES.md is silent, the variants, and the few [R]
numbers a profile spells out, whose one value is the rule's). config/rulesdata.py refuses a
profile holding any other value; simulated games and the property test draw every setting from
these values (`SETTINGS`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar

from court.ids import HouseId, NobleId

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

WEEK = 7 * 24 * 3600  # the longest deadline or time bank a profile may set
LAST_ROUND_MAX = 99  # the latest last round a game may have
BOOL = (True, False)
# What a random profile draws for a step's deadline or a time bank, in seconds: none, or a
# few that pass within a simulated game.
SECONDS_DRAWN = (0, 60, 120, 300)
# A setting with data of its own (the King's House bonuses, R-7.8): checked by rulesdata,
# drawn as the profile holds it or empty.
AS_WRITTEN = "as written"


@dataclass(frozen=True, slots=True)
class Allowed:
    """The values a setting may take and the rule it sets; `draws` are those a random profile
    picks from when not every allowed value (a week of seconds, a data table)."""

    rule: str
    # None: data of its own, checked apart (the King's House bonuses, config/rulesdata.py).
    values: tuple[Any, ...] | range | None
    draws: tuple[Any, ...] | None = None
    # Why the values stop where they do, when the rule alone does not say it.
    why: str = ""

    def allows(self, value: Any) -> bool:
        if self.values is None:
            return True
        if isinstance(self.values, range):
            return isinstance(value, int) and not isinstance(value, bool) and value in self.values
        return any(type(value) is type(v) and value == v for v in self.values)

    def choices(self) -> Sequence[Any]:
        if self.draws is not None:
            return self.draws
        return () if self.values is None else self.values

    def described(self) -> str:
        if self.values is None:
            return "checked with the roster"
        if isinstance(self.values, range):
            told = f"a whole number from {self.values.start} to {self.values.stop - 1}"
        else:
            shown = ", ".join(
                str(v).lower() if isinstance(v, bool) else repr(v) for v in self.values
            )
            told = f"one of {shown}"
        return f"{told}: {self.why}" if self.why else told


def setting(
    rule: str,
    values: tuple[Any, ...] | range | None,
    *,
    draws: tuple[Any, ...] | None = None,
    default: Any = MISSING,
    why: str = "",
) -> Any:
    """A profile setting: its rule and allowed values travel in the field's metadata."""
    meta = {"allowed": Allowed(rule, values, draws, why)}
    if default is MISSING:
        return field(metadata=meta)
    return field(default=default, metadata=meta)


def _seconds(rule: str, draws: tuple[int, ...] = SECONDS_DRAWN, default: Any = MISSING) -> Any:
    return setting(rule, range(WEEK + 1), draws=draws, default=default)


@dataclass(frozen=True, slots=True, kw_only=True)
class Players:
    min: int = setting("R-1.1 [R]", range(3, 7))
    max: int = setting("R-1.1 [R]", range(3, 7))
    # The place in the seat order that starts with the First Player marker (below players.min).
    first_player_seat: int = setting("R-1.1 [D]", range(6))


@dataclass(frozen=True, slots=True, kw_only=True)
class Variants:
    nights_watch: bool = setting("NWE variant", BOOL)
    title_concession: bool = setting("R-6.6 variant", BOOL)
    sealed_ballots: bool = setting("R-7.1 variant", BOOL)
    # R-4.3 [D]: per-player time banks (`Profile.clocks`); absent from logs before it existed.
    clocks: bool = setting("R-4.3 variant", BOOL, default=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Deadlines:
    """Seconds each interactive step stays open (R-4.3); 0 is no deadline."""

    candidacy: int = _seconds("R-4.3 [D]")
    ballot: int = _seconds("R-4.3 [D]")
    decree: int = _seconds("R-4.3 [D]")
    title_choice: int = _seconds("R-4.3 [D]")
    purchase: int = _seconds("R-4.3 [D]")


@dataclass(frozen=True, slots=True, kw_only=True)
class Clocks:
    """Seconds in each player's time bank per step kind with the clocks variant (R-4.3); 0 is
    no clock for that kind. `increment` is added to a bank each time its player acts in time."""

    candidacy: int = _seconds("R-4.3 [D]", default=0)
    ballot: int = _seconds("R-4.3 [D]", default=0)
    decree: int = _seconds("R-4.3 [D]", default=0)
    title_choice: int = _seconds("R-4.3 [D]", default=0)
    purchase: int = _seconds("R-4.3 [D]", default=0)
    increment: int = _seconds("R-4.3 [D]", draws=(0, 5, 30), default=0)

    def bank(self, kind: str) -> int:
        seconds: int = getattr(self, kind)
        return seconds


@dataclass(frozen=True, slots=True, kw_only=True)
class HostRole:
    """When the seats may take the host role over: once the host has had no connection for
    `takeover_after` seconds of a started game (a house setting, no rule of the game's)."""

    takeover_after: int = _seconds("house setting", draws=(0, 60, 600), default=600)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableVoteSettings:
    """When the other seats may vote to hand a seat to a new link: once its player has had no
    connection for `replace_after` seconds of a started game (a house setting)."""

    replace_after: int = _seconds("house setting", draws=(0, 60, 900), default=900)


@dataclass(frozen=True, slots=True, kw_only=True)
class Treasury:
    starting: int = setting("R-2.2 [D]", range(31))
    income_per_village: int = setting("R-2.2 [D]", range(4))
    income_per_sept: int = setting("R-2.2 [D]", range(4))


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleSettings:
    fief_price: int = setting("R-3.6 [D]", range(1, 21))
    king_holds_protector: bool = setting("R-3.8 [D]", BOOL)
    queen_protects_when_king_dies: bool = setting("R-3.8 [D]", BOOL)


@dataclass(frozen=True, slots=True, kw_only=True)
class Purchases:
    sept_cost: int = setting("R-4.6 [R]", (4,))
    septs_per_village: int = setting("R-4.6 [D]", range(1, 4))
    council_seat_sale: str = setting("R-4.6 [D]", ("sealed_bid", "none"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Marriage:
    hard_to_marry_fee: int = setting("R-5.3 [R]", (2,))
    opposite_gender: bool = setting("R-5.1 [D]", BOOL)
    # 4 is the rule; 3 is the variant that allows alliances in 3-player games.
    min_players_for_alliance: int = setting("R-4.7 [R], 3 a variant", (4, 3))


@dataclass(frozen=True, slots=True, kw_only=True)
class Decrees:
    pillage_per_sept: int = setting("R-6.2 [R]", (2,))
    gods_cursed_death_roll: int = setting("R-6.2 [R]", (1,))
    roll_at_round_start: bool = setting("R-4.4 [D]", BOOL)


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseBonus:
    house: HouseId
    votes: int
    while_in_play: tuple[NobleId, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ElectionSettings:
    tie_elects_nobody: bool = setting("R-7.1 [D]", BOOL)
    lord_commander_min_brothers: int = setting("R-7.3 [R]", (2,))
    lord_commander_min_votes: int = setting("R-7.3 [R]", (2,))
    hand_min_council: int = setting(
        "R-7.7 [D]",
        range(1, 5),
        why="while the Hand's seat is free, at most the four Masters sit on the Small Council",
    )
    king_min_titled_lords: int = setting("R-7.8 [D]", range(1, 7))
    king_min_votes: int = setting("R-7.8 [D]", range(7))
    king_house_bonuses: tuple[HouseBonus, ...] = setting(
        "R-7.8 [D]", None, draws=(AS_WRITTEN, []), default=()
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class NightWatch:
    max_brothers: str | int = setting("R-8.3 [D]", ("players", 1, 2, 3, 4, 5, 6))


@dataclass(frozen=True, slots=True, kw_only=True)
class Victory:
    solo_vp: int = setting("R-4.7 [R]", (3,))
    alliance_vp: int = setting("R-4.7 [R]", (4,))
    alliance_vp_nights_watch: int = setting("R-4.7 [R]", (5,))
    all_qualifying_win: bool = setting("R-4.7 [D]", BOOL)
    # The round whose victory check ends the game if nobody has won by then; 0: none. Drawn
    # within the rounds a simulated game plays, so that games reach it, and half the time none,
    # so that they also play long enough to reach what is rare.
    last_round: int = setting(
        "R-4.8 [D]", range(LAST_ROUND_MAX + 1), draws=(0, 0, 8, 20), default=0
    )


T = TypeVar("T", bound="DataclassInstance")

# Settings a profile no longer offers, with why: a profile or a game's first event that still
# holds one is read without it (config/rulesdata.py says so in the log).
RETIRED: dict[tuple[str, str], str] = {
    ("decrees", "odd_pillage_to_protector"): "2 Gold Dragons a Sept always split evenly (R-6.2)",
}


def _section(cls: type[T], raw: dict[str, Any], name: str = "") -> T:
    """Build a frozen settings section, ignoring nothing but the retired settings: unknown keys
    are an error."""
    raw = {key: value for key, value in raw.items() if (name, key) not in RETIRED}
    names = {f.name for f in fields(cls)}
    unknown = set(raw) - names
    if unknown:
        raise ValueError(f"unknown setting(s) {sorted(unknown)} for {cls.__name__}")
    return cls(**raw)


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    name: str
    description: str
    players: Players
    variants: Variants
    deadlines: Deadlines
    treasury: Treasury
    titles: TitleSettings
    purchases: Purchases
    marriage: Marriage
    decrees: Decrees
    elections: ElectionSettings
    night_watch: NightWatch
    victory: Victory
    clocks: Clocks = Clocks()
    # Absent from logs before the seats' takeover waited for the host's absence.
    host_role: HostRole = HostRole()
    # Absent from logs before the table voted to replace an absent player.
    table_votes: TableVoteSettings = TableVoteSettings()

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Profile:
        elections = dict(raw["elections"])
        bonuses = tuple(
            HouseBonus(
                house=HouseId(b["house"]),
                votes=int(b["votes"]),
                while_in_play=tuple(NobleId(n) for n in b["while_in_play"]),
            )
            for b in elections.pop("king_house_bonuses", ())
        )
        return cls(
            name=raw["name"],
            description=raw.get("description", ""),
            players=_section(Players, raw["players"]),
            variants=_section(Variants, raw["variants"]),
            deadlines=_section(Deadlines, raw["deadlines"]),
            treasury=_section(Treasury, raw["treasury"]),
            titles=_section(TitleSettings, raw["titles"]),
            purchases=_section(Purchases, raw["purchases"]),
            marriage=_section(Marriage, raw["marriage"]),
            decrees=_section(Decrees, raw["decrees"], "decrees"),
            elections=_section(ElectionSettings, {**elections, "king_house_bonuses": bonuses}),
            night_watch=_section(NightWatch, raw["night_watch"]),
            victory=_section(Victory, raw["victory"]),
            clocks=_section(Clocks, raw.get("clocks", {})),
            host_role=_section(HostRole, raw.get("host_role", {})),
            table_votes=_section(TableVoteSettings, raw.get("table_votes", {})),
        )


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting of a profile: where it is written (`section.key`), the values it may take,
    and whether a profile may leave it out (older profiles knew no clocks)."""

    section: str
    key: str
    allowed: Allowed
    optional: bool


def _declared() -> tuple[Setting, ...]:
    sections = [f for f in fields(Profile) if f.name not in ("name", "description")]
    found = []
    for section in sections:
        kind = section.type if isinstance(section.type, type) else globals()[str(section.type)]
        for f in fields(kind):
            optional = f.default is not MISSING or section.default is not MISSING
            found.append(Setting(section.name, f.name, f.metadata["allowed"], optional))
    return tuple(found)


# Every setting of a profile, in the order of its sections.
SETTINGS: tuple[Setting, ...] = _declared()
