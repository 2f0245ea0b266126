"""bench/load.py's clients play as the court page plays: the messages bench/page_client.py
listens for and sends by itself, the widths it pads sealed choices to and the records its feed
asks for are those of static/, read from the page's own modules."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"


@pytest.fixture(scope="module")
def page_client() -> Iterator[ModuleType]:
    """bench/page_client.py, importable with its neighbours (bench/ on sys.path)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import page_client

        yield page_client
    finally:
        sys.path.remove(str(ROOT / "bench"))


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
