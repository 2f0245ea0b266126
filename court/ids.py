"""Identifier types of the court: plain strings and ints with a name."""

from typing import NewType

GameId = NewType("GameId", str)
HouseId = NewType("HouseId", str)
NobleId = NewType("NobleId", str)
TitleId = NewType("TitleId", str)
RegionId = NewType("RegionId", str)
VillageId = NewType("VillageId", str)
FiefdomId = NewType("FiefdomId", str)
Seat = NewType("Seat", int)

# Titles the rules name: the rest come from config/titles.toml.
HAND = TitleId("hand")
KING = TitleId("king")
QUEEN = TitleId("queen")
PROTECTOR = TitleId("protector")
MASTER_OF_LAWS = TitleId("master-of-laws")
LORD_COMMANDER = TitleId("lord-commander")
MOTHER_OF_DRAGONS = TitleId("mother-of-dragons")
# what an Outlaw keeps besides his Fief titles.
OUTLAW_KEEPS = frozenset({KING, QUEEN, MOTHER_OF_DRAGONS})
