"""HTTP route of the map's drawing: the regions' outlines and the villages' points of
config/map.toml, which the court page draws and colours from each court view."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import Response, jsonify
from marshmallow import Schema, fields

from config.mapdrawing import drawing
from server.http.api import Routes
from server.http.games import profiles
from server.messages.message import schema_of
from server.service.profiles import Profiles

routes = Routes("realm_map", __name__)


# The drawing changes only with the code that serves it: a page may keep it an hour.
CACHE_SECONDS = 3600

_Point = fields.List(fields.Float(), required=True, metadata={"description": "[x, y]"})


class RegionDrawingSchema(Schema):
    id = fields.String(required=True)
    outline = fields.List(fields.List(fields.Float()), required=True)
    label = _Point


class VillageDrawingSchema(Schema):
    id = fields.String(required=True)
    at = _Point


class FiefdomDrawingSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class MapDrawingSchema(Schema):
    width = fields.Float(required=True)
    height = fields.Float(required=True)
    regions = fields.List(fields.Nested(RegionDrawingSchema), required=True)
    villages = fields.List(fields.Nested(VillageDrawingSchema), required=True)
    fiefdoms = fields.List(fields.Nested(FiefdomDrawingSchema), required=True)


@lru_cache(maxsize=4)
def _drawn(book: Profiles) -> dict[str, Any]:
    """The drawing of the map the server read and checked at start-up."""
    return schema_of(MapDrawingSchema).dump(drawing(book.shared["map"]))


@routes.route(
    "/map",
    "GET",
    "The map's drawing: each region's outline and label, each village's point, the "
    "Fiefdoms' names; a court view's regions say who holds each village",
    response=MapDrawingSchema,
)
def realm_map() -> Response:
    answer = jsonify(_drawn(profiles()))
    answer.headers["Cache-Control"] = f"public, max-age={CACHE_SECONDS}"
    return answer
