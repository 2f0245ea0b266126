"""Marshmallow schemas of the court view: what GET /api/games/<id> answers, and the
OpenAPI document says."""

from __future__ import annotations

from marshmallow import Schema, fields

from config.rulesdata import ARMS_CHARGES, ARMS_FIELDS
from court.state import StepKind
from server.http.device_view_schemas import DeviceKeyViewSchema
from server.http.schemas import CheckpointSchema
from server.http.table_view_schemas import EndingViewSchema, HostRoleViewSchema, TableViewSchema


class NobleViewSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    house = fields.String(required=True)
    gender = fields.String(required=True)
    attributes = fields.List(fields.String(), required=True)
    status = fields.String(required=True)
    outlaw = fields.Boolean(required=True)
    captor = fields.String(allow_none=True, required=True)
    spouse = fields.String(allow_none=True, required=True)
    titles = fields.List(fields.String(), required=True)


class ArmsViewSchema(Schema):
    """A House's arms, drawn in its two colours: the shield's field and its charge."""

    field = fields.String(required=True, metadata={"enum": list(ARMS_FIELDS)})
    charge = fields.String(required=True, metadata={"enum": list(ARMS_CHARGES)})


class HouseViewSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    words = fields.String(required=True)
    colours = fields.List(fields.String(), required=True)
    arms = fields.Nested(ArmsViewSchema, required=True)
    vp = fields.Integer(
        required=True,
        metadata={"description": "Victory points its living Nobles hold through titles (R-3.7)"},
    )
    seat = fields.Integer(allow_none=True, required=True)
    treasury = fields.Integer(allow_none=True, required=True)
    nobles = fields.List(fields.Nested(NobleViewSchema), required=True)


class SeatViewSchema(Schema):
    seat = fields.Integer(required=True)
    house = fields.String(required=True)
    player_name = fields.String(required=True)
    host = fields.Boolean(required=True)
    host_vote = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat this seat voted to make the host, if any"},
    )
    unclaimed = fields.Boolean(
        required=True,
        metadata={
            "description": "Handed to a new player who has not opened his link and said his "
            "name yet (`claim_seat`): the seat counts for no vote until then (R-9.2)"
        },
    )


class AllianceViewSchema(Schema):
    """Two players allied by a marriage (R-5.2): their seats, their Houses and the couple."""

    seats = fields.List(fields.Integer(), required=True)
    houses = fields.List(fields.String(), required=True)
    lord = fields.String(required=True)
    lady = fields.String(required=True)


class TitleViewSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    category = fields.String(required=True)
    vp = fields.Integer(required=True)
    council = fields.Boolean(
        required=True, metadata={"description": "On the Small Council: the Hand, the Masters"}
    )
    nights_watch = fields.Boolean(
        required=True, metadata={"description": "Exists only with the Night's Watch variant"}
    )
    holder = fields.String(allow_none=True, required=True)


class VillageViewSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    fiefdom = fields.String(required=True)
    controller = fields.String(allow_none=True, required=True)
    sept = fields.Boolean(required=True)
    septs = fields.Integer(required=True)


class RegionViewSchema(Schema):
    id = fields.String(required=True)
    number = fields.Integer(required=True)
    name = fields.String(required=True)
    principal = fields.String(required=True)
    villages = fields.List(fields.Nested(VillageViewSchema), required=True)


class StepViewSchema(Schema):
    """A step of the round by its one id, the id the decree view, the election view and the
    records use; `number` is the step's number in R-4.2, null where the rules give none."""

    kind = fields.String(required=True, metadata={"enum": [k.value for k in StepKind]})
    id = fields.String(required=True)
    number = fields.String(allow_none=True, required=True)
    name = fields.String(required=True)


class GameInfoSchema(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True)
    name = fields.String(
        allow_none=True, required=True, metadata={"description": "The host's name for the game"}
    )
    title = fields.String(
        required=True, metadata={"description": "The game's name, or Game <id> without one"}
    )
    players = fields.Integer(required=True)
    host_name = fields.String(required=True)
    listed = fields.Boolean(
        required=True, metadata={"description": "On the front page; else joined by invite"}
    )
    game_master_name = fields.String(allow_none=True, required=True)
    profile = fields.String(required=True)
    variants = fields.Dict(keys=fields.String(), values=fields.Boolean(), required=True)
    deadlines = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    round = fields.Integer(required=True)
    last_round = fields.Integer(
        required=True,
        metadata={"description": "The round whose victory check ends the game (R-4.8); 0: none"},
    )
    phase = fields.String(allow_none=True, required=True)
    phases = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={
            "description": "Every phase's name by its id (R-4.1): `1. Decrees and elections`"
        },
    )
    step = fields.Nested(StepViewSchema, allow_none=True, required=True)
    first_player = fields.Integer(allow_none=True, required=True)
    turn_order = fields.List(fields.Integer(), required=True)
    dice_seed_sha256 = fields.String(required=True)
    dice_seed = fields.String(allow_none=True, required=True)


class HandedOverSchema(Schema):
    at_version = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The version of the hand-over (null in logs too old to say)"},
    )
    by = fields.String(
        required=True,
        metadata={
            "enum": ["host", "table"],
            "description": "Who handed it: the host, or the other seats' vote (vote_replace)",
        },
    )


class ViewerSchema(Schema):
    seat = fields.Integer(allow_none=True, required=True)
    host = fields.Boolean(required=True)
    role = fields.String(
        required=True, metadata={"enum": ["player", "host", "game_master", "spectator"]}
    )
    holder = fields.String(allow_none=True, required=True)
    handed_over = fields.Nested(
        HandedOverSchema,
        allow_none=True,
        required=True,
        metadata={
            "description": "The seat was handed to the token the viewer holds (a new "
            "player or a new device): nothing the seat held sealed before `at_version` is his; "
            "null for a seat's own token"
        },
    )


class MarkerViewSchema(Schema):
    commitment = fields.String(required=True)
    candidate = fields.String(allow_none=True, required=True)


class OwnMarkerViewSchema(MarkerViewSchema):
    kind = fields.String(allow_none=True, required=True)


class PlacedViewSchema(Schema):
    seat = fields.Integer(required=True)
    markers = fields.List(fields.Nested(MarkerViewSchema), required=True)


class CandidateViewSchema(Schema):
    seat = fields.Integer(required=True)
    noble = fields.String(required=True)


class WeightViewSchema(Schema):
    seat = fields.Integer(required=True)
    votes = fields.Integer(required=True)


class ElectionViewSchema(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    stage = fields.String(required=True)
    order = fields.List(fields.Integer(), required=True)
    acted = fields.List(fields.Integer(), required=True)
    current = fields.Integer(allow_none=True, required=True)
    candidates = fields.List(fields.Nested(CandidateViewSchema), required=True)
    withdrawn = fields.List(fields.String(), required=True)
    weights = fields.List(fields.Nested(WeightViewSchema), required=True)
    minimum = fields.Integer(required=True)
    deadline = fields.Float(allow_none=True, required=True)
    placed = fields.List(fields.Nested(PlacedViewSchema), required=True)
    my_markers = fields.List(fields.Nested(OwnMarkerViewSchema), required=True)


class PendingViewSchema(Schema):
    kind = fields.String(required=True)
    seat = fields.Integer(required=True)
    noble = fields.String(required=True)
    title = fields.String(required=True)
    election = fields.String(allow_none=True, required=True)
    deadline = fields.Float(allow_none=True, required=True)


class AuctionViewSchema(Schema):
    order = fields.List(fields.Integer(), required=True)
    bid = fields.List(fields.Integer(), required=True)
    passed = fields.List(fields.Integer(), required=True)
    waiting = fields.List(fields.Integer(), required=True)
    deadline = fields.Float(allow_none=True, required=True)
    winner = fields.Integer(allow_none=True, required=True)


class OfferViewSchema(Schema):
    id = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    to_seat = fields.Integer(required=True)
    captive = fields.String(required=True)
    gold = fields.Integer(required=True)
    captives = fields.List(fields.String(), required=True)


class ProposalViewSchema(Schema):
    seat = fields.Integer(required=True)
    noble = fields.String(required=True)
    to_seat = fields.Integer(required=True)
    to_noble = fields.String(required=True)


class PowerViewSchema(Schema):
    """The title a decree turn acts through and its holder when the step opened (R-6.7)."""

    title = fields.String(required=True)
    noble = fields.String(required=True)


class DecreeViewSchema(Schema):
    step = fields.String(required=True)
    order = fields.List(fields.Integer(), required=True)
    acted = fields.List(fields.Integer(), required=True)
    current = fields.Integer(allow_none=True, required=True)
    deadline = fields.Float(allow_none=True, required=True)
    powers = fields.List(fields.Nested(PowerViewSchema, allow_none=True), required=True)
    proposal = fields.Nested(ProposalViewSchema, allow_none=True, required=True)


class PurchaseTurnsViewSchema(Schema):
    """Phase 4's purchases, each player in turn order until he is done (R-4.1)."""

    order = fields.List(fields.Integer(), required=True)
    done = fields.List(fields.Integer(), required=True)
    current = fields.Integer(allow_none=True, required=True)
    deadline = fields.Float(allow_none=True, required=True)


class MoveViewSchema(Schema):
    """A move the viewer may make now: the Socket.IO message and its payload."""

    message = fields.String(required=True)
    payload = fields.Dict(keys=fields.String(), required=True)


class RunningClockViewSchema(Schema):
    kind = fields.String(required=True)
    since = fields.Float(required=True)
    runs_out = fields.Float(required=True)


class PlayerClockViewSchema(Schema):
    seat = fields.Integer(required=True)
    left = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)
    running = fields.Nested(RunningClockViewSchema, allow_none=True, required=True)


class ClocksViewSchema(Schema):
    """The clocks variant (R-4.3): each player's seconds left per kind of step (`left`, as his
    clock last stopped), the profile's full banks, and the running clocks; `kind` is the kind
    of the step the court waits in."""

    banks = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    increment = fields.Integer(required=True)
    kind = fields.String(allow_none=True, required=True)
    players = fields.List(fields.Nested(PlayerClockViewSchema), required=True)


_Choices = fields.Dict(
    keys=fields.String(), values=fields.List(fields.String(allow_none=True)), required=True
)


class FactDependsSchema(Schema):
    on = fields.String(required=True, metadata={"description": "The field it depends on"})
    choices = _Choices


class FactChoicesSchema(Schema):
    fact = fields.String(required=True)
    choices = _Choices
    depends = fields.Dict(
        keys=fields.String(), values=fields.Nested(FactDependsSchema), required=True
    )


class CourtViewSchema(Schema):
    game = fields.Nested(GameInfoSchema, required=True)
    checkpoint = fields.Nested(
        CheckpointSchema,
        required=True,
        metadata={"description": "The server's signature of the log at the version shown"},
    )
    viewer = fields.Nested(ViewerSchema, required=True)
    seats = fields.List(fields.Nested(SeatViewSchema), required=True)
    houses = fields.List(fields.Nested(HouseViewSchema), required=True)
    alliances = fields.List(fields.Nested(AllianceViewSchema), required=True)
    titles = fields.List(fields.Nested(TitleViewSchema), required=True)
    regions = fields.List(fields.Nested(RegionViewSchema), required=True)
    election = fields.Nested(ElectionViewSchema, allow_none=True, required=True)
    decree = fields.Nested(DecreeViewSchema, allow_none=True, required=True)
    purchases = fields.Nested(PurchaseTurnsViewSchema, allow_none=True, required=True)
    fourth_seat = fields.String(allow_none=True, required=True)
    moves = fields.List(fields.Nested(MoveViewSchema), required=True)
    pending = fields.Nested(PendingViewSchema, allow_none=True, required=True)
    auction = fields.Nested(AuctionViewSchema, allow_none=True, required=True)
    offers = fields.List(fields.Nested(OfferViewSchema), required=True)
    clocks = fields.Nested(ClocksViewSchema, allow_none=True, required=True)
    host_role = fields.Nested(HostRoleViewSchema, required=True)
    table = fields.Nested(TableViewSchema, required=True)
    devices = fields.List(fields.Nested(DeviceKeyViewSchema), required=True)
    ending = fields.Nested(
        EndingViewSchema,
        allow_none=True,
        required=True,
        metadata={"description": "How the game ended; null while it is not over"},
    )
    invite = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The invite secret, to the host and the game master in the lobby "
            "only; null to everyone else"
        },
    )
    facts = fields.List(
        fields.Nested(FactChoicesSchema),
        allow_none=True,
        required=True,
        metadata={
            "description": "To the host and the game master: each fact they may record now "
            "and the choices of its fields; null to everyone else"
        },
    )
