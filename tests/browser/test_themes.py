"""The light and the dark theme of static/court.css: text in each meets WCAG AA contrast on
every surface it is drawn on (these need no browser)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.config.contrast import contrast

CSS = (Path(__file__).resolve().parents[2] / "static" / "court.css").read_text(encoding="utf-8")
THEMES = {
    "light": r":root \{(.*?)\}",
    "dark": r':root\[data-theme="dark"\] \{(.*?)\}',
    "system dark": r':root:not\(\[data-theme="light"\]\) \{(.*?)\}',
}
# Each colour of text and the surfaces it is drawn on.
PAIRS = [
    (ink, ground)
    for ink in ("--ink", "--muted", "--accent", "--ok", "--warn", "--bad", "--gold")
    for ground in ("--paper", "--card", "--seat")
] + [("--badge-ink", "--badge"), ("--ink", "--mark"), ("--bad", "--bad-bg"), ("--on-bar", "--bar")]


def palette(theme: str) -> dict[str, str]:
    block = re.search(THEMES[theme], CSS, re.DOTALL)
    assert block, theme
    return dict(re.findall(r"(--[a-z-]+): (#[0-9a-fA-F]{6})", block.group(1)))


@pytest.mark.parametrize("theme", list(THEMES))
def test_every_text_colour_of_each_theme_meets_aa_contrast(theme: str) -> None:
    colours = palette(theme)
    for ink, ground in PAIRS:
        assert contrast(colours[ink], colours[ground]) >= 4.5, (theme, ink, ground)


def test_the_system_s_dark_theme_is_the_toggle_s_dark_theme() -> None:
    assert palette("system dark") == palette("dark")
