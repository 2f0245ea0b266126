"""Marshmallow schemas of the court view's `table` (court/views/table.py): the table's open
votes, the correction under vote and those made, every vote with who cast it; its `host_role`
(court/views/host_role.py), the seats' votes for a new host; and its `ending`
(court/views/ending.py): how an ended game ended, and the standings."""

from __future__ import annotations

from marshmallow import Schema, fields

FACTS = ["death", "village_control", "gold"]


class ReplaceVoterSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "The seat that voted"})
    at = fields.Float(required=True, metadata={"description": "When, in server seconds"})
    bot = fields.Boolean(
        required=True, metadata={"description": "Voted for the bot rather than a new link"}
    )


class ReplaceVotesSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "The seat voted on"})
    voters = fields.List(
        fields.Nested(ReplaceVoterSchema),
        required=True,
        metadata={
            "description": "Only those cast since the seat's current absence began count "
            "(`presence.seats_away_since`)"
        },
    )
    electors = fields.Integer(required=True, metadata={"description": "The other seats"})
    votes_needed = fields.Integer(required=True)


class EndVotesSchema(Schema):
    voters = fields.List(fields.Integer(), required=True)
    seats = fields.Integer(required=True)
    votes_needed = fields.Integer(required=True)
    ended_by = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "The seats whose votes ended the game; empty otherwise"},
    )


class CorrectionViewSchema(Schema):
    version = fields.Integer(required=True, metadata={"description": "The record corrected"})
    fact = fields.String(required=True, metadata={"enum": FACTS})
    subject = fields.String(
        required=True, metadata={"description": "The Noble, the village or the House"}
    )
    cause = fields.String(required=True)
    recorded = fields.Dict(
        required=True,
        metadata={"description": "What the record says: {house}, {amount} or {status: dead}"},
    )
    proposed = fields.Dict(
        required=True,
        metadata={
            "description": "What the correction says: {house}, {amount} or "
            "{status, captor, outlaw} as the Noble stood before the death, and `candidacy`, "
            "the election whose candidacy his death withdrew and the correction gives back "
            "(null: none)"
        },
    )
    text = fields.String(required=True, metadata={"description": "Both, told as a sentence"})


class OpenCorrectionSchema(CorrectionViewSchema):
    accepted = fields.List(fields.Integer(), required=True)
    refused = fields.List(fields.Integer(), required=True)
    seats = fields.Integer(required=True)
    votes_needed = fields.Integer(required=True)


class ReplacedBySchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "The seat replaced"})
    voters = fields.List(fields.Integer(), required=True)


class TableViewSchema(Schema):
    open = fields.Boolean(
        required=True, metadata={"description": "The game is being played: the table may vote"}
    )
    replace_after = fields.Integer(
        required=True,
        metadata={"description": "Seconds a seat must have had no connection (the profile's)"},
    )
    replaced_at = fields.List(
        fields.Nested(ReplaceVoterSchema),
        required=True,
        metadata={
            "description": "When the table last handed each seat to a new link: its new "
            "player's absence counts from then at the earliest"
        },
    )
    replaced_by = fields.List(
        fields.Nested(ReplacedBySchema),
        required=True,
        metadata={
            "description": "The seats whose votes handed each seat to the link it holds now "
            "(a seat the host handed on since is not listed); each of them may read that link "
            "(GET /api/games/<id>/table/links) until its new player opens it"
        },
    )
    replace = fields.List(fields.Nested(ReplaceVotesSchema), required=True)
    bots = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "The seats the bot plays while their players are away "
            "(docs/rules-map.md, 'A seat played by the bot')"
        },
    )
    end = fields.Nested(EndVotesSchema, required=True)
    correction = fields.Nested(OpenCorrectionSchema, allow_none=True, required=True)
    made = fields.List(fields.Nested(CorrectionViewSchema), required=True)


class StandingSchema(Schema):
    seat = fields.Integer(required=True)
    house = fields.String(allow_none=True, required=True)
    player_name = fields.String(allow_none=True, required=True)
    vp = fields.Integer(required=True, metadata={"description": "Victory points at the end"})
    winner = fields.Boolean(required=True)


class EndingViewSchema(Schema):
    how = fields.String(
        required=True,
        metadata={
            "enum": ["victory", "last_round", "table"],
            "description": "The victory check (R-4.7), the last round's (R-4.8) or the "
            "table's vote (R-9.2)",
        },
    )
    round = fields.Integer(required=True)
    winners = fields.List(
        fields.Integer(), required=True, metadata={"description": "Their seats; none: nobody won"}
    )
    standings = fields.List(
        fields.Nested(StandingSchema),
        required=True,
        metadata={"description": "Every seat, the most victory points first"},
    )
    text = fields.String(required=True, metadata={"description": "How it ended, in a sentence"})


class HostVoteViewSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "The seat that voted"})
    for_seat = fields.Integer(required=True)
    at = fields.Float(
        allow_none=True,
        required=True,
        metadata={"description": "When (null in logs too old to say; such a vote never counts)"},
    )


class HostRoleViewSchema(Schema):
    host_seat = fields.Integer(allow_none=True, required=True)
    takeover_after = fields.Integer(
        required=True,
        metadata={"description": "Seconds the host must have had no connection (the profile's)"},
    )
    electors = fields.Integer(
        required=True, metadata={"description": "The seats that count (R-9.2) but the host's"}
    )
    votes_needed = fields.Integer(required=True)
    votes = fields.List(
        fields.Nested(HostVoteViewSchema),
        required=True,
        metadata={"description": "Only those cast since the host's current absence count"},
    )
    open = fields.Boolean(
        required=True,
        metadata={
            "description": "The viewer may vote once the host has been away for "
            "`takeover_after` seconds (`presence.host_away_since` says since when)"
        },
    )
    why = fields.String(
        allow_none=True,
        required=True,
        metadata={"enum": ["lobby", "ended", "host", "no_seat", "unclaimed", None]},
    )
    message = fields.String(required=True)
