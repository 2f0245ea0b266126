"""The rules a game is played with, parsed from the data its first event records.

A game never reads today's config: `Ruleset.from_dict` turns the profile, map,
roster and title table copied into `GameCreated` into frozen, typed data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from court.ids import FiefdomId, HouseId, NobleId, RegionId, TitleId, VillageId
from court.model.profile import Profile


class Gender(StrEnum):
    LORD = "lord"
    LADY = "lady"


class Attribute(StrEnum):
    """Noble attributes the court rules read (R-1.3)."""

    BASTARD = "bastard"
    HARD_TO_MARRY = "hard_to_marry"
    HEART_BREAKER = "heart_breaker"
    CRUEL = "cruel"
    IMMUNE_TO_JUSTICE = "immune_to_justice"
    PRINCE_OF_WESTEROS = "prince_of_westeros"
    GODS_CURSED = "gods_cursed"


class Category(StrEnum):
    """Title categories (R-3.1)."""

    FIEF = "fief"
    MILITARY = "military"
    HIGH = "high"
    ROYAL = "royal"
    MOTHER_OF_DRAGONS = "mother_of_dragons"


@dataclass(frozen=True, slots=True, kw_only=True)
class Region:
    id: RegionId
    number: int
    name: str
    principal: VillageId


@dataclass(frozen=True, slots=True, kw_only=True)
class Village:
    id: VillageId
    name: str
    region: RegionId
    fiefdom: FiefdomId


@dataclass(frozen=True, slots=True, kw_only=True)
class Fiefdom:
    id: FiefdomId
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class NobleCard:
    """A Noble as the roster describes him, before play changes anything."""

    id: NobleId
    name: str
    gender: Gender
    attributes: frozenset[Attribute]


@dataclass(frozen=True, slots=True, kw_only=True)
class Arms:
    """A House's arms as data, drawn in its two colours by the pages: the shield's field
    (plain or a partition) and one charge on it (config/roster.toml names both)."""

    field: str
    charge: str


# The arms of a game created before Houses had arms: a plain shield in the House's colours.
PLAIN_ARMS = Arms(field="plain", charge="none")


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseCard:
    id: HouseId
    name: str
    words: str
    colours: tuple[str, ...]
    nobles: tuple[NobleCard, ...]
    arms: Arms = PLAIN_ARMS


@dataclass(frozen=True, slots=True, kw_only=True)
class TitleDef:
    id: TitleId
    name: str
    category: Category
    vp: int
    council: bool = False
    master: bool = False
    nights_watch: bool = False
    fiefdom: FiefdomId | None = None
    region: RegionId | None = None


def noble_card(raw: dict[str, Any]) -> NobleCard:
    return NobleCard(
        id=NobleId(raw["id"]),
        name=raw["name"],
        gender=Gender(raw["gender"]),
        attributes=frozenset(Attribute(a) for a in raw.get("attributes", ())),
    )


def house_card(raw: dict[str, Any]) -> HouseCard:
    return HouseCard(
        id=HouseId(raw["id"]),
        name=raw["name"],
        words=raw.get("words", ""),
        colours=tuple(raw.get("colours", ())),
        nobles=tuple(noble_card(n) for n in raw["nobles"]),
        arms=Arms(**raw["arms"]) if "arms" in raw else PLAIN_ARMS,
    )


def title_def(raw: dict[str, Any]) -> TitleDef:
    return TitleDef(
        id=TitleId(raw["id"]),
        name=raw["name"],
        category=Category(raw["category"]),
        vp=int(raw.get("vp", 0)),
        council=bool(raw.get("council", False)),
        master=bool(raw.get("master", False)),
        nights_watch=bool(raw.get("nights_watch", False)),
        fiefdom=raw.get("fiefdom"),
        region=raw.get("region"),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    profile: Profile
    regions: tuple[Region, ...]
    villages: tuple[Village, ...]
    fiefdoms: tuple[Fiefdom, ...]
    houses: tuple[HouseCard, ...]
    titles: tuple[TitleDef, ...]
    slots: dict[Category, int | None]
    # Titles and Houses by id: looked up on every rule check, so built once.
    title_index: dict[TitleId, TitleDef] = field(default_factory=dict, compare=False, repr=False)
    house_index: dict[HouseId, HouseCard] = field(default_factory=dict, compare=False, repr=False)
    # Each region's Warden title (the military title of the region): the elections' order
    # (court/options/electorate.py) is asked for on every command.
    warden_index: dict[RegionId, TitleDef] = field(default_factory=dict, compare=False, repr=False)
    # What other modules derive from the rules alone, made on first ask (the phase-1
    # elections, court/options/electorate.py); never part of a snapshot or of equality.
    derived: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "title_index", {t.id: t for t in self.titles})
        object.__setattr__(self, "house_index", {h.id: h for h in self.houses})
        wardens: dict[RegionId, TitleDef] = {}
        for title in self.titles:
            if title.category is Category.MILITARY and title.region is not None:
                wardens.setdefault(title.region, title)
        object.__setattr__(self, "warden_index", wardens)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Ruleset:
        game_map, roster, table = raw["map"], raw["roster"], raw["titles"]
        return cls(
            profile=Profile.from_dict(raw["profile"]),
            regions=tuple(
                Region(
                    id=RegionId(r["id"]),
                    number=int(r["number"]),
                    name=r["name"],
                    principal=VillageId(r["principal"]),
                )
                for r in sorted(game_map["regions"], key=lambda r: r["number"])
            ),
            villages=tuple(
                Village(
                    id=VillageId(v["id"]),
                    name=v["name"],
                    region=RegionId(v["region"]),
                    fiefdom=FiefdomId(v["fiefdom"]),
                )
                for v in game_map["villages"]
            ),
            fiefdoms=tuple(
                Fiefdom(id=FiefdomId(f["id"]), name=f["name"]) for f in game_map["fiefdoms"]
            ),
            houses=tuple(house_card(h) for h in roster["houses"]),
            titles=tuple(title_def(t) for t in table["titles"]),
            slots={Category(name): c.get("slots") for name, c in table["categories"].items()},
        )

    def house(self, house_id: HouseId) -> HouseCard | None:
        return self.house_index.get(house_id)

    def title(self, title_id: TitleId) -> TitleDef | None:
        return self.title_index.get(title_id)
