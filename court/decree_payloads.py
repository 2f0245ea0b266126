"""The decree steps of phase 1 (R-5, R-6, R-8.4): each checked payload turned into its
command, for the HTTP routes and the Socket.IO messages alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from court.commands import Command
from court.decree_commands import (
    AnswerMarriage,
    ConcedeTitle,
    Desert,
    Divorce,
    EmbraceRhllor,
    HandConversion,
    Pardon,
    ProposeMarriage,
    SendToWall,
)
from court.ids import NobleId, TitleId

Payload = dict[str, Any]


def _noble(b: Payload, key: str) -> NobleId | None:
    return NobleId(b[key]) if b.get(key) else None


# (HTTP path under /games/<id>/, Socket.IO message, summary, builder); the schemas
# (court/schemas.py DECREE_SCHEMAS) stay with the adapters.
DECREES: tuple[tuple[str, str, str, Callable[[Payload], Command]], ...] = (
    (
        "decrees/propose-marriage",
        "propose_marriage",
        "1.1.1: propose one of your unmarried Nobles to one of another House (R-5.1)",
        lambda b: ProposeMarriage(noble=NobleId(b["noble"]), to_noble=NobleId(b["to_noble"])),
    ),
    (
        "decrees/answer-marriage",
        "answer_marriage",
        "Accept or decline the marriage proposed to your House (R-5.1)",
        lambda b: AnswerMarriage(accept=b["accept"]),
    ),
    (
        "decrees/divorce",
        "divorce",
        "1.1.1: the Master of Laws divorces a couple (R-5.4)",
        lambda b: Divorce(noble=NobleId(b["noble"])),
    ),
    (
        "decrees/embrace-rhllor",
        "embrace_rhllor",
        "1.1.2: the Protector of the Realm embraces R'hllor (R-6.2)",
        lambda b: EmbraceRhllor(hand_converts=b["hand_converts"], burn=_noble(b, "burn")),
    ),
    (
        "decrees/hand-conversion",
        "hand_conversion",
        "1.1.2: the Hand converts too (and may burn an untitled Noble), or not (R-6.2)",
        lambda b: HandConversion(convert=b["convert"], burn=_noble(b, "burn")),
    ),
    (
        "decrees/pardon",
        "pardon",
        "1.1.3: the Master of Laws, then the King, lifts one Outlaw mark (R-6.3)",
        lambda b: Pardon(noble=NobleId(b["noble"])),
    ),
    (
        "decrees/send-to-wall",
        "send_to_wall",
        "1.1.4: the Hand declares a Noble Outlaw, or sends him to the Wall (R-6.4)",
        lambda b: SendToWall(noble=NobleId(b["noble"])),
    ),
    (
        "decrees/concede-title",
        "concede_title",
        "1.1.5 (variant): hand a title to another of your own Nobles (R-6.6)",
        lambda b: ConcedeTitle(title=TitleId(b["title"]), to=NobleId(b["to"])),
    ),
    (
        "decrees/desert",
        "desert",
        "1.2.1 (NWE): one of your Brothers breaks his oath (R-8.4)",
        lambda b: Desert(noble=NobleId(b["noble"])),
    ),
)
