"""The court view's devices' keys (court/views/devices.py), for the OpenAPI document."""

from __future__ import annotations

from marshmallow import Schema, fields


class DeviceKeyViewSchema(Schema):
    holder = fields.String(
        required=True, metadata={"description": "`seat:<n>`, `host` (without a seat) or `master`"}
    )
    key_id = fields.String(required=True)
    public_key = fields.String(required=True, metadata={"description": "Base64, 32 bytes"})
    proof = fields.String(
        required=True,
        metadata={"description": '"token" for a first key, else the key id that signed it'},
    )
