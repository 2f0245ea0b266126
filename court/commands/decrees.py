"""Commands of the decree steps of phase 1 (R-5, R-6, R-8.4)."""

from __future__ import annotations

from dataclasses import dataclass

from court.ids import NobleId, TitleId


@dataclass(frozen=True, slots=True, kw_only=True)
class ProposeMarriage:
    """1.1.1: one of your unmarried Nobles to an unmarried Noble of another House (R-5.1)."""

    noble: NobleId
    to: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerMarriage:
    accept: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Divorce:
    """1.1.1: the Master of Laws' player divorces a married couple (R-5.4)."""

    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class EmbraceRhllor:
    """1.1.2: the Protector embraces R'hllor. When the same player holds the Hand, he also
    says whether the Hand converts and whom he burns (R-6.2)."""

    hand_converts: bool = False
    burn: NobleId | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HandConversion:
    """1.1.2: the Hand's player answers the Protector's embrace (R-6.2)."""

    convert: bool
    burn: NobleId | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Pardon:
    """1.1.3: the Master of Laws, then the King, lifts one Outlaw mark (R-6.3)."""

    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class SendToWall:
    """1.1.4: the Hand names a Noble: Outlaw, or the black with the NWE (R-6.4)."""

    noble: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class ConcedeTitle:
    """1.1.5 (variant): a non-Royal title to another of your own Nobles (R-6.6)."""

    title: TitleId
    to: NobleId


@dataclass(frozen=True, slots=True, kw_only=True)
class Desert:
    """1.2.1 (NWE): one of your Brothers breaks his oath (R-8.4)."""

    noble: NobleId


DecreeCommand = (
    ProposeMarriage
    | AnswerMarriage
    | Divorce
    | EmbraceRhllor
    | HandConversion
    | Pardon
    | SendToWall
    | ConcedeTitle
    | Desert
)
