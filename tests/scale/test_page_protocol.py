"""bench/load.py's clients play as the court page plays: the messages bench/page_client.py
listens for and sends by itself, the widths it pads sealed choices to and the records its feed
asks for are those of static/, read from the page's own modules."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from server.messages.catalogue import CATALOGUE
from server.messages.signed import signed_payload

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"


def bench_module(name: str) -> Iterator[ModuleType]:
    """bench/<name>.py, importable with its neighbours (bench/ on sys.path)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "bench"))


@pytest.fixture(scope="module")
def page_client() -> Iterator[ModuleType]:
    yield from bench_module("page_client")


@pytest.fixture(scope="module")
def page_keys() -> Iterator[ModuleType]:
    yield from bench_module("page_keys")


def read(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def test_the_bench_page_listens_for_what_the_court_page_listens_for(
    page_client: ModuleType,
) -> None:
    listened = set(re.findall(r'socket\.on\("([a-z_]+)"', read("lib/live.js")))
    # Socket.IO's own connection events are no message of the court.
    listened -= {"connect", "disconnect", "connect_error"}
    assert listened == set(page_client.PAGE_LISTENS)


def test_the_bench_page_sends_by_itself_what_the_court_page_sends(
    page_client: ModuleType,
) -> None:
    sent = set(re.findall(r'api\.send\("([a-z_]+)"', read("lib/live.js")))
    assert sent == set(page_client.PAGE_SENDS)


def test_the_bench_page_pads_and_keeps_as_the_court_page_does(page_client: ModuleType) -> None:
    widths = dict(re.findall(r"(\w+): (\d+)", read("lib/padding.js").split("WIDTHS = {")[1]))
    assert {k: int(v) for k, v in widths.items()} == page_client.WIDTHS
    limit = re.search(r"constructor\(el, limit = (\d+)[,)]", read("panels/feed.js"))
    assert limit is not None and int(limit.group(1)) == page_client.FEED_LIMIT


def test_the_bench_page_keeps_its_court_view_from_the_push_changes(
    page_client: ModuleType,
) -> None:
    """The court page applies a push's `view` (static/pages/court.js `follow`) and its own part
    (`followOwn`): so does the bench's."""
    game = read("pages/court.js")
    assert "applyPatch(court, view.patch" in game and "view.own.includes(audience)" in game
    assert "applyPatch(court, part.patch" in game and "part.audience !== audience" in game
    assert "witness.see(checkpoint, push.records)" in game
    assert not re.search(r'call\("GET", `/api/games/\$\{gameId\}`', game)


def test_the_bench_page_signs_what_the_court_page_signs(page_keys: ModuleType) -> None:
    """The messages the court page sends unsigned (static/lib/device.js) are the bench's, and the
    openings it sends beside a sealed choice's commitments (static/lib/signing.js) are those
    the server leaves out of the signed part, which the bench's pages sign through."""
    unsigned = re.search(r"const UNSIGNED = new Set\(\[([^\]]*)\]\)", read("lib/device.js"))
    assert unsigned is not None
    assert set(re.findall(r'"([a-z_]+)"', unsigned.group(1))) == page_keys.UNSIGNED
    found = re.search(r"const OPENINGS = \{([^}]*)\}", read("lib/signing.js"))
    assert found is not None
    openings = {
        name: tuple(re.findall(r'"([a-z_]+)"', fields))
        for name, fields in re.findall(r"(\w+): \[([^\]]*)\]", found.group(1))
    }
    assert {n: tuple(CATALOGUE[n].openings) for n in openings} == openings


def signed_move_record(game_id: str, body: dict[str, Any], key: Any) -> dict[str, Any]:
    """The `MoveSigned` record the server makes of a signed ballot, as a page is pushed it."""
    envelope = body["signed"]
    data = {
        "holder": key.holder,
        "key_id": envelope["key_id"],
        "message": "place_ballot",
        "payload": signed_payload(CATALOGUE["place_ballot"], body),
        "version": envelope["version"],
        "hash": envelope["hash"],
        "nonce": envelope["nonce"],
        "signature": envelope["signature"],
        "records": 1,
    }
    return {"game_id": game_id, "type": "MoveSigned", "data": data}


def test_a_bench_pages_signed_ballot_is_believed_and_a_changed_one_is_not(
    page_keys: ModuleType,
) -> None:
    """Given a seat's bench page that keyed its device, when it signs a ballot on a head, then
    the ballot is salted and committed, the part the server takes as signed is the part the
    page signed, and another page's fold of the keys believes it; the same move with one
    commitment changed, or signed by a key the log never recorded, is not believed."""
    key = page_keys.PageKey("g1", "seat:2")
    head = {"version": 41, "hash": "ab" * 32}
    markers = [{"kind": "for", "candidate": "robb-stark"}]
    body = key.signed("place_ballot", {"markers": markers}, head, False)
    assert body["markers"][0]["salt"] and body["committed"][0]["candidate"] == "robb-stark"
    fold = page_keys.MoveFold()
    fold.known([{"holder": "seat:2", "key_id": key.key_id, "public_key": key.public_key}])

    fold.see(signed_move_record("g1", body, key))
    assert fold.unbelieved == 0

    changed = signed_move_record("g1", body, key)
    changed["data"]["payload"]["committed"][0]["commitment"] = "00" * 32
    fold.see(changed)
    assert fold.unbelieved == 1
    stranger = page_keys.PageKey("g1", "seat:2")
    fold.see(signed_move_record("g1", stranger.signed("place_ballot", {}, head, False), stranger))
    assert fold.unbelieved == 2
