"""Who may send each command, over HTTP and Socket.IO: the table the authorization matrix
walks. A route or message without a row here fails the matrix's completeness test."""

from __future__ import annotations

from dataclasses import dataclass

from app import api_routes
from server.http.api import openapi_document
from server.messages.decrees import DECREES
from server.messages.facts import FACTS
from server.messages.talk import TALK
from tests.hostile.payloads import SCHEMAS
from tests.server.http.test_no_server_errors import VALID_BODIES

GAME = "/api/games/{game_id}/"

# Socket.IO message -> its HTTP route (None: the message has no route): one name for both.
ROUTES: dict[str, str | None] = {
    **{name: GAME + "commands/" + name for name in SCHEMAS if name != "sync" and name not in TALK},
    "sync": None,
    **dict.fromkeys(TALK),
}
# The one route that is no command of a game: anyone creates a game, whatever token he shows.
CREATE = "/api/games"

HOST_ONLY = {"start", "advance_phase", "close_table_phases", "change_listing"}
# Seats and the host role: the host's; the vote is any non-host seat's.
HOST_ONLY |= {"hand_seat", "hand_host", "remove_seat"}
RECORDERS = {m.name for m in FACTS}
ANYONE = {"close_overdue", "sync"}
NEWCOMERS = {"join"}
# Talk (server/messages/talk.py): any seat and the game master, at any time, live only.
TALKERS = set(TALK)
# What is left is a seat's own move.
SEAT = set(ROUTES) - HOST_ONLY - RECORDERS - ANYONE - NEWCOMERS - TALKERS

# Where each command is sent: the stage at which it is, or could soon be, somebody's move.
STAGE = {
    "join": "lobby",
    "leave": "lobby",
    "start": "lobby",
    "change_listing": "lobby",
    "stand": "election",
    "place_ballot": "election",
    "pass": "decree",
    **{m.name: "decree" for m in DECREES},
    "answer_marriage": "proposal",
    "remove_seat": "lobby",
    "vote_host": "lobby",
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
    message: str
    route: str | None
    role: str  # seat, host, recorder, anyone, newcomer, talk
    stage: str
    own: str  # the sender allowed to send it (tables.Tables.token names)

    @property
    def other_seat(self) -> str | None:
        """A seat that may not send it: not this seat's move now (None: no such seat)."""
        return TURN[self.stage][1] if self.role == "seat" else None

    def forbidden(self) -> dict[str, str]:
        """Each sender who must be refused -> the HTTP code of the refusal ('' for any
        refusal by the rules, 403 or 409)."""
        refused = {"other_game": "bad_token", "left": "bad_token"}
        if self.role in ("seat", "host", "recorder", "talk"):
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

    def body(self) -> dict:
        if self.message == "sync":
            return {"last_version": 0}
        if self.role == "talk":
            return {"text": "A word", **({"to": 0} if self.message == "whisper" else {})}
        return dict(VALID_BODIES[self.route]) if self.route else {}


def _role(message: str) -> str:
    for role, members in (
        ("host", HOST_ONLY),
        ("recorder", RECORDERS),
        ("anyone", ANYONE),
        ("newcomer", NEWCOMERS),
        ("talk", TALKERS),
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
]

# Commands whose own sender succeeds in the seeded games with the payload of its row: the
# positive controls that show the matrix is not refusing everything.
SUCCEEDS = {
    "join",
    "leave",
    "pass",
    "answer_marriage",
    "advance_phase",
    "record_gold",
    "record_village",
    "record_villages",
    "change_listing",
    "hand_seat",
    "hand_host",
    "remove_seat",
    "vote_host",
}


# POST routes that are no court command: the host's webhook settings, whose authorization
# tests/server/notify/test_webhook_notices.py checks (401 without a token, 403 for a seat).
SETTINGS_POSTS = {"/api/games/{game_id}/webhook/test"}


def documented_commands() -> tuple[set[str], set[str]]:
    """(POST routes of the OpenAPI document that are commands, Socket.IO messages the fuzzer
    knows)."""
    posts = {path for path, ops in openapi_document(api_routes())["paths"].items() if "post" in ops}
    posts -= SETTINGS_POSTS
    return posts, set(SCHEMAS)
