"""Who may send each command, over HTTP and Socket.IO: the table the authorization matrix
walks. A route or message without a row here fails the matrix's completeness test."""

from __future__ import annotations

from dataclasses import dataclass

from court.commands import JoinSeat
from server.messages.catalogue import CATALOGUE
from server.messages.decrees import DECREES
from server.messages.devices import DEVICES
from server.messages.facts import FACTS
from server.messages.message import Sender
from server.messages.talk import TALK
from tests.api_routes import CREATE, OPERATIONS, body
from tests.hostile.payloads import SCHEMAS

GAME = "/api/games/{game_id}/"

# Socket.IO message -> its HTTP route (None: the message has no route): one name for both.
ROUTES: dict[str, str | None] = {
    **{name: GAME + "commands/" + name for name in CATALOGUE},
    "sync": None,
    **dict.fromkeys(TALK),
}
# A person's key (server/http/mykey.py) is a credential of no game: its routes have a matrix of
# their own (tests/hostile/test_key_authorization.py).
KEYS = "/api/keys"
KEY_ROUTES: set[tuple[str, str]] = {
    (method, path) for method, path, _ in OPERATIONS if path == KEYS or path.startswith(KEYS + "/")
}
# Routes that are no message but need a token all the same (the host's webhook, a seat's
# mail address), or change something without one (a mailed link verifying an address):
# (METHOD, path) -> who may send them, as the document says.
SETTINGS: dict[tuple[str, str], str] = {
    (method, path): operation["x-sender"]
    for method, path, operation in OPERATIONS
    if (operation["x-sender"] != "anyone" or method != "GET")
    and path not in ROUTES.values()
    and path != CREATE
    and (method, path) not in KEY_ROUTES
}

# Who may send each message, as the catalogue declares it: the facts are the host's or the
# game master's record, every other message the host's alone is the host's; a newcomer takes
# a seat; what anyone may send, any seat may; talk is any seat's and the game master's.
RECORDERS = {m.name for m in FACTS}
HOST_ONLY = {m.name for m in CATALOGUE.values() if m.sender is Sender.HOST} - RECORDERS
NEWCOMERS = {m.name for m in CATALOGUE.values() if m.command is JoinSeat}
ANYONE = {m.name for m in CATALOGUE.values() if m.sender is Sender.ANYONE} - NEWCOMERS | {"sync"}
TALKERS = set(TALK)
# A device's key is any seat's, the host's or the game master's to register for himself.
KEYHOLDERS = {m.name for m in DEVICES}
# What is left is a seat's own move.
SEAT = set(ROUTES) - HOST_ONLY - RECORDERS - ANYONE - NEWCOMERS - TALKERS - KEYHOLDERS

# Where each command is sent: the stage at which it is, or could soon be, somebody's move.
STAGE = {
    "join": "lobby",
    "leave": "lobby",
    "start": "lobby",
    "change_listing": "lobby",
    "rename_game": "lobby",
    "stand": "election",
    "place_ballot": "election",
    "pass": "decree",
    **{m.name: "decree" for m in DECREES},
    "answer_marriage": "proposal",
    "remove_seat": "lobby",
    # Refused in the lobby; in play refused too while the host has not been away for the
    # profile's time, which the seeded games never wait for: it is never a positive control.
    "vote_host": "cards",
    # What the table decides together is any seat's, never one seat's turn: in the lobby every
    # sender is refused (`game_lobby`), so the rows check who is refused before the rules.
    **dict.fromkeys(
        (
            "vote_replace",
            "vote_end",
            "propose_correction",
            "answer_correction",
            "withdraw_correction",
        ),
        "lobby",
    ),
}
# The seat whose move it is at each stage, and a seat whose move it is not.
TURN = {
    "lobby": ("lannister", None),
    "decree": ("stark", "lannister"),
    "proposal": ("lannister", "tyrell"),
    "election": ("lannister", "tyrell"),
    "cards": ("lannister", "tyrell"),
}

# Codes of a refusal for who is asking, not for what is asked.
AUTH_CODES = {"token_required", "bad_token", "seat_required", "host_only", "game_master_seat"}


@dataclass(frozen=True)
class Row:
    message: str  # a Socket.IO message, or `METHOD path` for a route that is no message
    route: str | None
    role: str  # seat, host, recorder, anyone, newcomer, talk, keyholder
    stage: str
    own: str  # the sender allowed to send it (tables.Tables.token names)
    method: str = "POST"

    @property
    def socket(self) -> bool:
        """Whether it is a Socket.IO message (else a route of its own)."""
        return self.message in ROUTES

    @property
    def recorded(self) -> bool:
        """Whether its success changes the court's log (a setting, talk and sync do not)."""
        return self.socket and self.role != "talk" and self.message != "sync"

    @property
    def other_seat(self) -> str | None:
        """A seat that may not send it: not this seat's move now (None: no such seat)."""
        return TURN[self.stage][1] if self.role == "seat" else None

    def forbidden(self) -> dict[str, str]:
        """Each sender who must be refused -> the HTTP code of the refusal ('' for any
        refusal by the rules, 403 or 409)."""
        refused = {"other_game": "bad_token", "left": "bad_token"}
        if self.role in ("seat", "host", "recorder", "talk", "keyholder"):
            refused["none"] = "token_required"
        if self.role in ("host", "recorder"):
            refused["lannister"] = "host_only"
        if self.role in ("seat", "host"):
            refused["master"] = "seat_required" if self.role == "seat" else "host_only"
        if self.role == "newcomer":
            refused["master"] = "game_master_seat"
        if self.other_seat is not None:
            refused[self.other_seat] = ""
        return refused

    def body(self) -> dict | None:
        if self.message == "sync":
            return {"last_version": 0}
        if self.role == "talk":
            return {"text": "A word", **({"to": 0} if self.message == "whisper" else {})}
        found = body(self.method, self.route) if self.route else None
        return dict(found) if found is not None else ({} if self.socket else None)


def _role(message: str) -> str:
    for role, members in (
        ("host", HOST_ONLY),
        ("recorder", RECORDERS),
        ("anyone", ANYONE),
        ("newcomer", NEWCOMERS),
        ("talk", TALKERS),
        ("keyholder", KEYHOLDERS),
    ):
        if message in members:
            return role
    return "seat"


def _own(message: str, role: str, stage: str) -> str:
    if role in ("host", "recorder"):
        return "host"
    if role in ("anyone", "newcomer"):
        return "none"
    return TURN[stage][0]


ROWS = [
    Row(message, ROUTES[message], role, stage, _own(message, role, stage))
    for message in sorted(ROUTES)
    for role in [_role(message)]
    for stage in [STAGE.get(message, "cards")]
] + [
    Row(f"{method} {path}", path, sender, "lobby", _own(path, sender, "lobby"), method)
    for (method, path), sender in sorted(SETTINGS.items())
]

# Commands whose own sender succeeds in the seeded games with the payload of its row: the
# positive controls that show the matrix is not refusing everything.
SUCCEEDS = {
    "add_device_key",
    "join",
    "leave",
    "pass",
    "answer_marriage",
    "advance_phase",
    "record_gold",
    "record_village",
    "record_villages",
    "change_listing",
    "rename_game",
    "hand_seat",
    "hand_host",
    "remove_seat",
}


def documented_commands() -> tuple[set[tuple[str, str]], set[str]]:
    """((METHOD, path) of every documented route a token may be needed for, or that changes
    something; every Socket.IO message the fuzzer knows)."""
    routes = {
        (method, path)
        for method, path, operation in OPERATIONS
        if operation["x-sender"] != "anyone" or method != "GET"
    }
    return routes - {("POST", CREATE)} - KEY_ROUTES, set(SCHEMAS)
