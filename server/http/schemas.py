"""Marshmallow schemas of the HTTP requests and answers that are not commands (the commands'
are in server/messages/): games, history, verification, errors."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from court.model.profile import LAST_ROUND_MAX
from server.messages.fields import DAY, NAME, VERSION_MAX, Bool, GameName, Id, Int, Shape, Text


class VariantsSchema(Shape):
    nights_watch = Bool()
    title_concession = Bool()
    sealed_ballots = Bool()
    clocks = Bool()


def _seconds(**kwargs: object) -> fields.Integer:
    """R-4.3: a deadline or a time bank (or the host's absence before a takeover), in whole
    seconds from none to a week."""
    error = "Give whole seconds from {min} to {max} (a week)."
    return Int(validate=validate.Range(0, DAY, error=error), **kwargs)


class DeadlinesSchema(Shape):
    candidacy = _seconds()
    ballot = _seconds()
    decree = _seconds()
    title_choice = _seconds()
    purchase = _seconds()


class ClocksSchema(DeadlinesSchema):
    """R-4.3 clocks variant: seconds in each player's time bank per step kind (0: no clock
    for that kind), and the seconds added to a bank each time its player acts in time."""

    increment = _seconds()


class HostRoleSchema(Shape):
    takeover_after = _seconds(
        metadata={
            "description": "The seats other than the host's may vote a new host in once the "
            "host has had no connection for this many seconds of the started game (0: as soon "
            "as he has none)"
        }
    )


class TableVotesSchema(Shape):
    replace_after = _seconds(
        metadata={
            "description": "The other seats may vote to hand a seat to a new link once its "
            "player has had no connection for this many seconds of the started game (0: as "
            "soon as he has none)"
        }
    )


class CreateGameSchema(Shape):
    name = GameName(
        allow_none=True,
        load_default=None,
        metadata={"description": "The game's name, shown in titles, lists and notices"},
    )
    profile = Id(
        allow_none=True,
        load_default=None,
        metadata={"description": "A rules profile of GET /api/profiles; none: RULES_PROFILE's"},
    )
    players = Int(required=True, validate=validate.Range(3, 6))
    host_name = Text(required=True, validate=NAME)
    variants = fields.Nested(VariantsSchema, load_default=dict)
    deadlines = fields.Nested(DeadlinesSchema, load_default=dict)
    clocks = fields.Nested(ClocksSchema, load_default=dict)
    host_role = fields.Nested(HostRoleSchema, load_default=dict)
    table_votes = fields.Nested(TableVotesSchema, load_default=dict)
    first_player_seat = Int(validate=validate.Range(0, 5), allow_none=True)
    last_round = Int(
        validate=validate.Range(
            0, LAST_ROUND_MAX, error="Give a round from 1 to {max}, or 0 for no last round."
        ),
        allow_none=True,
        metadata={
            "description": "The round whose victory check ends the game, the most victory "
            "points winning (R-4.8); 0: none; absent or null: the profile's"
        },
    )
    game_master_name = Text(validate=NAME, allow_none=True)
    listed = Bool(
        load_default=False,
        metadata={
            "description": "Show the game on the front page (GET /api/games), where anyone "
            "may join it; otherwise joining needs the invite"
        },
    )


class GameCreatedSchema(Schema):
    game_id = fields.String(required=True)
    host_token = fields.String(required=True)
    game_master_token = fields.String(
        allow_none=True, metadata={"description": "Secret token of the game master, if named"}
    )
    invite = fields.String(
        required=True,
        metadata={"description": "The secret joining an unlisted game needs; for the host"},
    )
    invite_url = fields.String(
        required=True,
        metadata={
            "description": "The game's page with the invite in its fragment (#invite=...), "
            "which browsers never send to a server"
        },
    )
    version = fields.Integer(required=True)


class EmptySchema(Schema):
    pass


class ErrorSchema(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    field_errors = fields.Dict(keys=fields.String(), data_key="fields")


class HistoryQuerySchema(Shape):
    after = fields.Integer(load_default=0, validate=validate.Range(0, VERSION_MAX))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class RecordSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    schema_version = fields.Integer(required=True)
    recorded_at = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    data = fields.Dict(required=True)
    private = fields.Dict(allow_none=True, required=True)
    private_sha256 = fields.String(required=True)
    hash = fields.String(required=True)
    text = fields.String()
    pad = fields.String()  # a sealed choice's: court/views/padding.py


class HistoryPageSchema(Schema):
    version = fields.Integer(required=True)
    records = fields.List(fields.Nested(RecordSchema), required=True)
    next_after = fields.Integer(allow_none=True, required=True)


class VerificationSchema(Schema):
    """The deep check of a game's log (docs/disputes.md, "What verify checks")."""

    ok = fields.Boolean(required=True)
    records = fields.Integer(required=True)
    head = fields.String(required=True)
    bad_index = fields.Integer(allow_none=True, required=True)
    bad_version = fields.Integer(allow_none=True, required=True)
    check = fields.String(
        required=True,
        metadata={
            "description": "the check that failed: chain, record, names, fold, invariants, "
            "commitments, tally, bids, dice or snapshot; empty when ok"
        },
    )
    reason = fields.String(required=True)
    notes = fields.List(fields.String(), required=True)
    since = fields.Integer(
        required=True,
        metadata={
            "description": "the check began after this version, which this server checked "
            "before (0: from version 1); an edit at or before it that left the hash there "
            "unchanged is found only by the full check, `flask court verify`"
        },
    )


class CheckpointSchema(Schema):
    """The server's signature of a game's log at a version (docs/protocol.md, "Checkpoints")."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    hash = fields.String(required=True, metadata={"description": "The hash the log ends on"})
    key_id = fields.String(
        required=True, metadata={"description": "The signing key's id (GET /api/signing-key)"}
    )
    signature = fields.String(
        required=True,
        metadata={
            "description": "Ed25519, base64, of the UTF-8 text "
            "`small-council checkpoint\\n{game_id}\\n{version}\\n{hash}`"
        },
    )


class ProfilesSchema(Schema):
    profiles = fields.List(fields.String(), required=True)
    times = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.Dict(keys=fields.String())),
        required=True,
        metadata={
            "description": "per profile, its step `deadlines`, its clocks' time banks "
            "(`clocks`, with `increment`) and the waiting times of the table's votes (`votes`: "
            "`takeover_after`, `replace_after`), in seconds: what a game gets when the host "
            "sets none"
        },
    )
    last_rounds = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "per profile, its last round (R-4.8); 0: none"},
    )


class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)
