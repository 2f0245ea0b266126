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
