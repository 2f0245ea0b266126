"""What a player needs to hold the server to the log it showed: the public keys the server's
signed checkpoints verify with, and the records of the chain exactly as they were hashed, so that a
page recomputes every hash itself (docs/protocol.md, "Checkpoints and the chain")."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from court.errors import NotFound
from server.http.api import Routes
from server.http.games import service
from server.http.schemas import CheckpointSchema
from server.messages.fields import VERSION_MAX, Shape

routes = Routes("witness", __name__)

# The most records one page of the chain holds.
CHAIN_PAGE = 500


class PublicKeySchema(Schema):
    key_id = fields.String(required=True)
    public_key = fields.String(
        required=True, metadata={"description": "The raw 32-byte Ed25519 public key, base64"}
    )
    current = fields.Boolean(
        required=True,
        metadata={"description": "Whether the server signs with it now; false: a key of before"},
    )


class SigningKeySchema(Schema):
    algorithm = fields.String(required=True, metadata={"enum": ["Ed25519"]})
    key_id = fields.String(required=True, metadata={"description": "The key signing now"})
    public_key = fields.String(required=True, metadata={"description": "Its public key, base64"})
    message = fields.String(
        required=True, metadata={"description": "The text a checkpoint's signature covers"}
    )
    keys = fields.List(
        fields.Nested(PublicKeySchema),
        required=True,
        metadata={"description": "Every key a kept checkpoint may name: the current one first"},
    )


@routes.route(
    "/signing-key",
    "GET",
    "The public key the server's checkpoints verify with, and the keys of before a rotation",
    response=SigningKeySchema,
)
def signing_key() -> dict[str, Any]:
    return service().keys.signing.document()


class ChainQuerySchema(Shape):
    first = fields.Integer(load_default=1, data_key="from", validate=validate.Range(1, VERSION_MAX))
    last = fields.Integer(load_default=None, data_key="to", validate=validate.Range(1, VERSION_MAX))


class ChainRecordSchema(Schema):
    """The fields of a record the hash covers, as stored."""

    version = fields.Integer(required=True)
    type = fields.String(required=True)
    schema_version = fields.Integer(required=True)
    recorded_at = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    data_json = fields.String(
        required=True,
        metadata={"description": "The public part's canonical JSON text exactly as hashed"},
    )
    private_sha256 = fields.String(
        required=True, metadata={"description": "SHA-256 of the private part's JSON; '' for none"}
    )
    hash = fields.String(required=True)


class ChainSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's newest"})
    prev_hash = fields.String(
        required=True,
        metadata={"description": "The hash of the record before the first (64 zeros: none)"},
    )
    records = fields.List(fields.Nested(ChainRecordSchema), required=True)
    checkpoint = fields.Nested(
        CheckpointSchema,
        required=True,
        metadata={"description": "The server's signature of the log at the page's last record"},
    )
    next_from = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "Where the next page begins; null at the newest record"},
    )


@routes.route(
    "/games/<game_id>/chain",
    "GET",
    f"The records `from` (1 when left out) to `to` (the newest when left out or later; `from` "
    f"when before it; at most {CHAIN_PAGE} a page) with exactly the fields their hashes cover, "
    "public parts only, and a signed checkpoint of the last: to recompute the chain",
    query=ChainQuerySchema,
    response=ChainSchema,
)
def chain(game_id: str, query: dict[str, Any]) -> dict[str, Any]:
    court = service()
    newest = court.current(game_id).version
    first = query["first"]
    if first > newest:
        raise NotFound(
            "unknown_version", f"Game {game_id} has versions 1 to {newest}; {first} does not exist."
        )
    last = min(max(query["last"] or newest, first), newest, first + CHAIN_PAGE - 1)
    prev_hash, rows = court.chain(game_id, first, last)
    if not rows:  # records deleted behind the server's back: `verify` names them
        raise NotFound("unknown_version", f"Game {game_id} holds no record at {first} now.")
    records = [
        {
            "version": r.version,
            "type": r.type,
            "schema_version": r.schema_version,
            "recorded_at": r.recorded_at,
            "seat": r.seat,
            "data_json": r.data,
            "private_sha256": r.private_sha256,
            "hash": r.hash,
        }
        for r in rows
    ]
    end = rows[-1]
    return {
        "game_id": game_id,
        "version": newest,
        "prev_hash": prev_hash,
        "records": records,
        "checkpoint": court.keys.signing.checkpoint(game_id, end.version, end.hash),
        "next_from": end.version + 1 if end.version < newest else None,
    }
