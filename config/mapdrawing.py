"""The map as the court page draws it: the `[drawing]` of map.toml, each region's outline and
label, each village's point, checked when the map loads (a village stands inside its region)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

MAP_FILE = "map.toml"
MAX_SIDE = 2000  # drawing units: far more than a page needs, and a bound on what is served

Point = tuple[float, float]


class DrawingError(ValueError):
    """The map's drawing is missing or inconsistent."""


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _point(value: object, where: str, size: Point) -> Point:
    """A point [x, y] inside the drawing's width and height."""
    if not (isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2):
        raise DrawingError(f"{MAP_FILE}: {where} must be a point [x, y]")
    x, y = value
    if not (_number(x) and _number(y)) or not (0 <= x <= size[0] and 0 <= y <= size[1]):
        raise DrawingError(f"{MAP_FILE}: {where} {list(value)!r} lies outside the drawing")
    return (float(x), float(y))


def _size(game_map: Mapping[str, Any]) -> Point:
    drawing = game_map.get("drawing")
    if not isinstance(drawing, Mapping):
        raise DrawingError(f"{MAP_FILE}: [drawing] with width and height is missing")
    return (_side(drawing, "width"), _side(drawing, "height"))


def _side(drawing: Mapping[str, Any], name: str) -> float:
    side = drawing.get(name)
    if not _number(side) or not 0 < side <= MAX_SIDE:
        raise DrawingError(f"{MAP_FILE}: drawing {name} must be a number 1 to {MAX_SIDE}")
    return float(side)


def inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Whether `point` lies inside `polygon` (even-odd rule, ray cast to the right)."""
    x, y = point
    found = False
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            found = not found
    return found


def _outline(region: Mapping[str, Any], size: Point) -> list[Point]:
    where = f"region {region['id']!r}"
    outline = region.get("outline")
    if not isinstance(outline, list) or len(outline) < 3:
        raise DrawingError(f"{MAP_FILE}: {where} needs an outline of 3 points or more")
    return [_point(p, f"{where} outline point", size) for p in outline]


def validate_drawing(game_map: Mapping[str, Any]) -> None:
    """Raise DrawingError unless every region has an outline and a label inside the drawing
    and every village stands at its own point inside its region's outline."""
    drawing(game_map)


def drawing(game_map: Mapping[str, Any]) -> dict[str, Any]:
    """The checked drawing, as the page draws it: sizes, outlines, labels and points."""
    size = _size(game_map)
    outlines = {r["id"]: _outline(r, size) for r in game_map["regions"]}
    labels = {
        r["id"]: _point(r.get("label"), f"region {r['id']!r} label", size)
        for r in game_map["regions"]
    }
    points: dict[str, Point] = {}
    for village in game_map["villages"]:
        where = f"village {village['id']!r}"
        at = _point(village.get("at"), f"{where} at", size)
        if not inside(at, outlines[village["region"]]):
            raise DrawingError(f"{MAP_FILE}: {where} at {list(at)!r} lies outside its region")
        if at in points.values():
            raise DrawingError(f"{MAP_FILE}: {where} stands on another village's point")
        points[village["id"]] = at
    return {
        "width": size[0],
        "height": size[1],
        "regions": [
            {"id": rid, "outline": [list(p) for p in outline], "label": list(labels[rid])}
            for rid, outline in outlines.items()
        ],
        "villages": [{"id": vid, "at": list(at)} for vid, at in points.items()],
        "fiefdoms": [{"id": f["id"], "name": f["name"]} for f in game_map["fiefdoms"]],
    }
