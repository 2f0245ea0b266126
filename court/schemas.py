"""Marshmallow schemas: the shape of every HTTP request and response (shape only, no rules)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from court import text
from court.commands import DeathKind


class WholeMatch(validate.Regexp):
    """A Regexp the whole string must match: with `re.match`, `$` lets a trailing newline in."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


ID = WholeMatch(f"^{text.ID.pattern}$", error="Use lower-case letters, digits, - and _.")
NAME = validate.Length(min=1, max=text.NAME_LIMIT)
DAY = 7 * 24 * 3600
VERSION_MAX = 2**31 - 1


# What Text refuses, told to the OpenAPI document too (an ECMA-262 and Python pattern). Lone
# surrogates are refused as well: they are no Unicode characters, so no JSON Schema string.
PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"


class Text(fields.String):
    """A string a player typed: printable Unicode that can be stored and hashed as UTF-8."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={"pattern": PRINTABLE, **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        typed = super()._deserialize(value, attr, data, **kwargs)
        problem = text.unprintable(typed)
        if problem is not None:
            raise ValidationError(f"This text cannot be stored as typed: {problem}.")
        return typed


def Int(**kwargs: Any) -> fields.Integer:
    """A whole number: 3.5 or "3" is refused, not rounded."""
    return fields.Integer(strict=True, **kwargs)


class Bool(fields.Boolean):
    """true or false: 1, "yes" or "on" are refused, as the OpenAPI document says."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class VariantsSchema(Schema):
    nights_watch = Bool()
    title_concession = Bool()
    sealed_ballots = Bool()


class DeadlinesSchema(Schema):
    candidacy = Int(validate=validate.Range(0, DAY))
    ballot = Int(validate=validate.Range(0, DAY))
    decree = Int(validate=validate.Range(0, DAY))
    title_choice = Int(validate=validate.Range(0, DAY))
    purchase = Int(validate=validate.Range(0, DAY))


class CreateGameSchema(Schema):
    profile = fields.String(load_default="default", validate=ID)
    players = Int(required=True, validate=validate.Range(3, 6))
    host_name = Text(required=True, validate=NAME)
    variants = fields.Nested(VariantsSchema, load_default=dict)
    deadlines = fields.Nested(DeadlinesSchema, load_default=dict)
    first_player_seat = Int(validate=validate.Range(0, 5), allow_none=True)
    game_master_name = Text(validate=NAME, allow_none=True)


class GameCreatedSchema(Schema):
    game_id = fields.String(required=True)
    host_token = fields.String(required=True)
    game_master_token = fields.String(
        allow_none=True, metadata={"description": "Secret token of the game master, if named"}
    )
    invite_url = fields.String(required=True)
    version = fields.Integer(required=True)


class JoinSeatSchema(Schema):
    house = fields.String(required=True, validate=ID)
    player_name = Text(required=True, validate=NAME)


class SeatJoinedSchema(Schema):
    seat = fields.Integer(required=True)
    house = fields.String(required=True)
    token = fields.String(required=True)
    version = fields.Integer(required=True)


class EmptySchema(Schema):
    pass


class StartGameSchema(Schema):
    seat_order = fields.List(
        Int(validate=validate.Range(0, VERSION_MAX)), validate=validate.Length(3, 6)
    )


class AdjustGoldSchema(Schema):
    house = fields.String(required=True, validate=ID)
    amount = Int(required=True, validate=validate.Range(-1000, 1000))
    cause = Text(required=True, validate=validate.Length(min=1, max=120))


class StandSchema(Schema):
    noble = fields.String(required=True, validate=ID)


class MarkerSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["for", "decoy"]))
    candidate = fields.String(required=True, validate=ID)


class BallotSchema(Schema):
    markers = fields.List(
        fields.Nested(MarkerSchema), required=True, validate=validate.Length(max=2)
    )


class OverflowSchema(Schema):
    title = fields.String(required=True, validate=ID)
    to = fields.String(load_default=None, allow_none=True, validate=ID)


class VillageFactSchema(Schema):
    village = fields.String(required=True, validate=ID)
    house = fields.String(required=True, allow_none=True, validate=ID)
    cause = Text(required=True, validate=validate.Length(min=1, max=120))


# -- recorded facts of a Noble's life and Court Events (section 9) ----------------------


def Cause() -> Text:
    return Text(required=True, validate=validate.Length(min=1, max=120))


class NobleFactSchema(Schema):
    """A fact about one Noble: release, escape, Mother of Dragons, Heir born."""

    noble = fields.String(required=True, validate=ID)
    cause = Cause()


class CaptureFactSchema(Schema):
    noble = fields.String(required=True, validate=ID)
    captor_house = fields.String(required=True, validate=ID)
    by = fields.String(load_default=None, allow_none=True, validate=ID)
    cause = Cause()


class DeathFactSchema(Schema):
    noble = fields.String(required=True, validate=ID)
    kind = fields.String(required=True, validate=validate.OneOf([k.value for k in DeathKind]))
    cause = Cause()


class AddNobleSchema(Schema):
    house = fields.String(required=True, validate=ID)
    noble_id = fields.String(required=True, validate=ID)
    name = Text(required=True, validate=NAME)
    gender = fields.String(required=True, validate=validate.OneOf(["lord", "lady"]))
    attributes = fields.List(
        fields.String(
            validate=validate.OneOf(
                ["bastard", "hard_to_marry", "heart_breaker", "cruel", "immune_to_justice"]
            )
        ),
        load_default=list,
        validate=validate.Length(max=5),
    )
    cause = Cause()


class JoinCouncilSchema(Schema):
    noble = fields.String(required=True, validate=ID)
    master_title = fields.String(required=True, validate=ID)
    cause = Cause()


class WallSuppliesSchema(Schema):
    amount = Int(required=True, validate=validate.Range(1, 100))
    to_house = fields.String(required=True, validate=ID)
    cause = Cause()


# Socket.IO message of each fact (court/fact_payloads.py) -> its payload's shape.
FACT_SCHEMAS: dict[str, type[Schema]] = {
    "record_capture": CaptureFactSchema,
    "record_release": NobleFactSchema,
    "record_escape": NobleFactSchema,
    "record_death": DeathFactSchema,
    "add_noble": AddNobleSchema,
    "join_small_council": JoinCouncilSchema,
    "grant_mother_of_dragons": NobleFactSchema,
    "heir_born": NobleFactSchema,
    "record_wall_supplies": WallSuppliesSchema,
}


class ReceiptMarkerSchema(Schema):
    kind = fields.String(required=True)
    candidate = fields.String(required=True)
    salt = fields.String(required=True)


class ReceiptSchema(Schema):
    election = fields.String(required=True)
    version = fields.Integer(required=True)
    record_hash = fields.String(required=True)
    commitments = fields.List(fields.String(), required=True)
    markers = fields.List(fields.Nested(ReceiptMarkerSchema), required=True)


class BallotAckSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    receipt = fields.Nested(ReceiptSchema, required=True)


# -- purchases at court (phase 4) and ransom (R-3.6, R-4.6, R-8.2) ---------------------

GOLD_MAX = 10_000


class SeptSchema(Schema):
    village = fields.String(required=True, validate=ID)


class FiefPurchaseSchema(Schema):
    title = fields.String(required=True, validate=ID)
    noble = fields.String(required=True, validate=ID)


class BidSchema(Schema):
    amount = Int(required=True, validate=validate.Range(0, GOLD_MAX))


class CouncilSeatSchema(Schema):
    noble = fields.String(required=True, validate=ID)
    title = fields.String(required=True, validate=ID)


class RansomOfferSchema(Schema):
    captive = fields.String(required=True, validate=ID)
    gold = Int(load_default=0, validate=validate.Range(0, GOLD_MAX))
    captives = fields.List(
        fields.String(validate=ID), load_default=list, validate=validate.Length(max=20)
    )


class RansomAnswerSchema(Schema):
    offer = Int(required=True, validate=validate.Range(1, VERSION_MAX))


# Socket.IO message of each purchase or ransom command (court/purchase_payloads.py) -> its
# payload's shape; None takes no fields.
PURCHASE_SCHEMAS: dict[str, type[Schema] | None] = {
    "build_sept": SeptSchema,
    "buy_fief_title": FiefPurchaseSchema,
    "grant_fief_title": FiefPurchaseSchema,
    "end_purchases": None,
    "pass_bid": None,
    "choose_council_seat": CouncilSeatSchema,
    "offer_ransom": RansomOfferSchema,
    "accept_ransom": RansomAnswerSchema,
    "refuse_ransom": RansomAnswerSchema,
    "withdraw_ransom": RansomAnswerSchema,
}


class NobleChoiceSchema(Schema):
    noble = fields.String(required=True, validate=ID)


class ProposeMarriageSchema(Schema):
    noble = fields.String(required=True, validate=ID)
    to_noble = fields.String(required=True, validate=ID)


class AnswerMarriageSchema(Schema):
    accept = Bool(required=True)


class EmbraceSchema(Schema):
    hand_converts = Bool(load_default=False)
    burn = fields.String(load_default=None, allow_none=True, validate=ID)


class HandConversionSchema(Schema):
    convert = Bool(required=True)
    burn = fields.String(load_default=None, allow_none=True, validate=ID)


class ConcedeSchema(Schema):
    title = fields.String(required=True, validate=ID)
    to = fields.String(required=True, validate=ID)


DECREE_SCHEMAS: dict[str, type[Schema] | None] = {
    "propose_marriage": ProposeMarriageSchema,
    "answer_marriage": AnswerMarriageSchema,
    "divorce": NobleChoiceSchema,
    "embrace_rhllor": EmbraceSchema,
    "hand_conversion": HandConversionSchema,
    "pardon": NobleChoiceSchema,
    "send_to_wall": NobleChoiceSchema,
    "concede_title": ConcedeSchema,
    "desert": NobleChoiceSchema,
}


class BidReceiptSchema(Schema):
    version = fields.Integer(required=True)
    record_hash = fields.String(required=True)
    commitment = fields.String(required=True)
    amount = fields.Integer(required=True)
    salt = fields.String(required=True)


class BidAckSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    receipt = fields.Nested(BidReceiptSchema, required=True)


class AckSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)


class ErrorSchema(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    field_errors = fields.Dict(keys=fields.String(), data_key="fields")


class HistoryQuerySchema(Schema):
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


class HistoryPageSchema(Schema):
    version = fields.Integer(required=True)
    records = fields.List(fields.Nested(RecordSchema), required=True)
    next_after = fields.Integer(allow_none=True, required=True)


class VerificationSchema(Schema):
    """The deep check of a game's log (README, "What verify checks")."""

    ok = fields.Boolean(required=True)
    records = fields.Integer(required=True)
    head = fields.String(required=True)
    bad_index = fields.Integer(allow_none=True, required=True)
    bad_version = fields.Integer(allow_none=True, required=True)
    check = fields.String(
        required=True,
        metadata={
            "description": "the check that failed: chain, record, names, fold, invariants, "
            "commitments, tally, bids or dice; empty when ok"
        },
    )
    reason = fields.String(required=True)
    notes = fields.List(fields.String(), required=True)


class ProfilesSchema(Schema):
    profiles = fields.List(fields.String(), required=True)


class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)
