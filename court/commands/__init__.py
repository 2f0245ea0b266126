"""Court commands: what a player or the host asks for, in the imperative.

Commands never name the acting seat: it comes from the authenticated token and
reaches `decide` as an `Actor`. They live in one module per subdomain, as the
events do; this package gathers them into the one `Command` union.
"""

from __future__ import annotations

from court.commands.base import (
    SPECTATOR,
    Actor,
)
from court.commands.bots import TakeSeatBack
from court.commands.command import BotCommand, BotMove, Command, needs, supplied
from court.commands.decrees import (
    AnswerMarriage,
    ConcedeTitle,
    DecreeCommand,
    Desert,
    Divorce,
    EmbraceRhllor,
    HandConversion,
    Pardon,
    ProposeMarriage,
    SendToWall,
)
from court.commands.devices import AddDeviceKey, DeviceCommand, DropDeviceKey
from court.commands.elections import (
    ElectionCommand,
    MarkerChoice,
    PlaceBallot,
    StandForElection,
)
from court.commands.nobles import (
    AddNoble,
    DeathKind,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    NobleCommand,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordWallSupplies,
)
from court.commands.purchases import (
    AcceptRansom,
    BuildSept,
    BuyFiefTitle,
    ChooseCouncilSeat,
    EndPurchases,
    GrantFiefTitle,
    OfferRansom,
    PassBid,
    PlaceBid,
    PurchaseCommand,
    RefuseRansom,
    WithdrawRansom,
)
from court.commands.rounds import (
    AdvancePhase,
    CloseOverdueStep,
    CloseTablePhases,
    Pass,
    RoundCommand,
)
from court.commands.seats import (
    AddSeatLink,
    ClaimSeat,
    DropSeatLink,
    HandHost,
    HandSeat,
    RemoveSeat,
    SeatCommand,
    VoteForHost,
)
from court.commands.secrets import Drawn, Secret, digest
from court.commands.setup import (
    AdjustGold,
    ChangeListing,
    CreateGame,
    JoinSeat,
    LeaveSeat,
    RecordVillageControl,
    RecordVillages,
    RenameGame,
    SetupCommand,
    StartGame,
    VillageChange,
)
from court.commands.signed import Signature, SignedMove
from court.commands.table import (
    AnswerCorrection,
    ProposeCorrection,
    TableCommand,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
)
from court.commands.titles import (
    AcceptTitle,
    RefuseTitle,
    ResolveTitleOverflow,
    TitleCommand,
)

# Command fields that may hold a secret (a ballot, a bid, a token's digest, the dice seed):
# never written to a log line.
_SECRET_FIELDS = frozenset(
    {
        "markers",
        "amount",
        "salt",
        "token_sha256",
        "link_sha256",
        "host_token_sha256",
        "dice_seed",
        "game_master_token_sha256",
        "ruleset",
        "invite",
    }
)


def describe(command: Command | SignedMove) -> str:
    """A command for the operator's log: its name and its fields, secrets left out."""
    if isinstance(command, SignedMove):
        return f"{describe(command.command)} signed by key {command.signature.key_id}"
    fields = getattr(command, "__dataclass_fields__", {})
    shown = ", ".join(
        f"{name}={getattr(command, name)!r}" for name in fields if name not in _SECRET_FIELDS
    )
    return f"{type(command).__name__}({shown})"


__all__ = [
    "SPECTATOR",
    "AcceptRansom",
    "AcceptTitle",
    "Actor",
    "AddDeviceKey",
    "AddNoble",
    "AddSeatLink",
    "AdjustGold",
    "AdvancePhase",
    "AnswerCorrection",
    "AnswerMarriage",
    "BotCommand",
    "BotMove",
    "BuildSept",
    "BuyFiefTitle",
    "ChangeListing",
    "ChooseCouncilSeat",
    "ClaimSeat",
    "CloseOverdueStep",
    "CloseTablePhases",
    "Command",
    "ConcedeTitle",
    "CreateGame",
    "DeathKind",
    "DecreeCommand",
    "Desert",
    "DeviceCommand",
    "Divorce",
    "Drawn",
    "DropDeviceKey",
    "DropSeatLink",
    "ElectionCommand",
    "EmbraceRhllor",
    "EndPurchases",
    "GrantFiefTitle",
    "GrantMotherOfDragons",
    "HandConversion",
    "HandHost",
    "HandSeat",
    "HeirBorn",
    "JoinSeat",
    "JoinSmallCouncil",
    "LeaveSeat",
    "MarkerChoice",
    "NobleCommand",
    "OfferRansom",
    "Pardon",
    "Pass",
    "PassBid",
    "PlaceBallot",
    "PlaceBid",
    "ProposeCorrection",
    "ProposeMarriage",
    "PurchaseCommand",
    "RecordCapture",
    "RecordDeath",
    "RecordEscape",
    "RecordRelease",
    "RecordVillageControl",
    "RecordVillages",
    "RecordWallSupplies",
    "RefuseRansom",
    "RefuseTitle",
    "RemoveSeat",
    "RenameGame",
    "ResolveTitleOverflow",
    "RoundCommand",
    "SeatCommand",
    "Secret",
    "SendToWall",
    "SetupCommand",
    "Signature",
    "SignedMove",
    "StandForElection",
    "StartGame",
    "TableCommand",
    "TakeSeatBack",
    "TitleCommand",
    "VillageChange",
    "VoteForHost",
    "VoteToEnd",
    "VoteToReplace",
    "WithdrawCorrection",
    "WithdrawRansom",
    "describe",
    "digest",
    "needs",
    "supplied",
]
