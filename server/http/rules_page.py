"""The court rules as a page (`/rules`): docs/rules.md rendered once, each rule's line
anchored by its id (`/rules#R-7.4`) and each section by its number (`/rules#section-9`), so
a line of the history can link to the rule it applied."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
RULE = re.compile(r"^(R-\d+\.\d+)\b")
SECTION = re.compile(r"^(\d+)\.")


@cache
def rules_html() -> Markup:
    """The rules as HTML; raw HTML in the text is escaped, never passed through."""
    md = MarkdownIt("commonmark", {"html": False})
    tokens = md.parse(RULES.read_text(encoding="utf-8"))
    _anchor(tokens)
    return Markup(md.renderer.render(tokens, md.options, {}))


def _anchor(tokens: list[Token]) -> None:
    """Gives each rule's list item and each numbered section's heading its id."""
    opened: Token | None = None
    for index, token in enumerate(tokens):
        if token.type == "list_item_open":
            opened = token
        if token.type != "inline":
            continue
        rule = RULE.match(token.content)
        if rule and opened is not None and not opened.attrGet("id"):
            opened.attrSet("id", rule[1])
        section = SECTION.match(token.content)
        if section and index and tokens[index - 1].type == "heading_open":
            tokens[index - 1].attrSet("id", f"section-{section[1]}")
        opened = None
