"""Every link of the docs lands: each relative link of README.md and docs/*.md names a file that
exists and, with a `#anchor`, a heading of that file; every mention of a doc in the pages
(templates/, static/), the code and the tests names a doc that exists and, with a quoted
section (`docs/protocol.md, "Padding"`, `README, "Quick start"`), a heading of it."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

THIS = Path(__file__).resolve()
ROOT = THIS.parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
# Where the pages and the code name a doc: templates and static modules, and the Python trees.
MENTIONING = (
    "templates",
    "static",
    "court",
    "elections",
    "server",
    "config",
    "bench",
    "devtools",
    "deploy",
    "tests",
)
MENTIONING_FILES = (
    "app.py",
    "Makefile",
    "pyproject.toml",
    "requirements.in",
    "requirements-dev.in",
)

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^ *```.*?^ *```", re.DOTALL | re.MULTILINE)
INLINE_CODE = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$", re.MULTILINE)
MENTION = re.compile(r"(docs/[\w-]+\.md|README)(?:\.md)?(?:[,:] +\(?\"([^\"\n]+)\")?")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, markup and punctuation dropped, each
    space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in ("L", "N"))
    return kept.replace(" ", "-")


def headings(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [m.group(2) for m in HEADING.finditer(text)]


def anchors(path: Path) -> set[str]:
    """Every heading's anchor; a repeated one gets -1, -2 … as GitHub numbers them."""
    seen: dict[str, int] = {}
    found = set()
    for heading in headings(path):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    text = INLINE_CODE.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return [m.group(1) for m in LINK.finditer(text)]


def broken_links(path: Path) -> list[str]:
    """The relative links of one Markdown file that land on no file, or on no heading."""
    broken = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
            continue  # another site, mail, or a path of the running server
        file_part, _, anchor = target.partition("#")
        landing = (path.parent / file_part).resolve() if file_part else path
        if not landing.exists():
            broken.append(f"{target}: no such file")
        elif anchor and landing.suffix == ".md" and anchor not in anchors(landing):
            broken.append(f"{target}: no heading #{anchor} in {landing.name}")
    return broken


def broken_mentions(text: str) -> list[str]:
    """The docs a text names that do not exist, and the sections it quotes that are no
    heading of theirs (a quoted section may be a heading's first words)."""
    broken = []
    for name, section in MENTION.findall(text):
        doc = ROOT / (name if name.startswith("docs/") else "README.md")
        if not doc.exists():
            broken.append(f"{name}: no such file")
        elif section and not any(
            h.lower().startswith(section.lower().rstrip(".")) for h in headings(doc)
        ):
            broken.append(f'{name}, "{section}": no such heading')
    return broken


def mentioning_files() -> list[Path]:
    files = [ROOT / name for name in MENTIONING_FILES if (ROOT / name).exists()]
    for folder in MENTIONING:
        for path in sorted((ROOT / folder).rglob("*")):
            # Installed packages (a bench's node_modules) are no part of the project.
            if "node_modules" in path.parts:
                continue
            if path.suffix in (".py", ".js", ".html", ".css", ".toml") and path != THIS:
                files.append(path)
    return files


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_of_the_docs_lands_on_a_file_and_a_heading(doc: Path) -> None:
    assert broken_links(doc) == []


def test_the_docs_and_the_code_name_only_docs_and_sections_that_exist() -> None:
    broken = {
        path.relative_to(ROOT).as_posix(): found
        for path in [*DOCS, *mentioning_files()]
        if (found := broken_mentions(path.read_text(encoding="utf-8")))
    }
    assert broken == {}


def test_a_broken_link_a_missing_heading_and_a_wrong_section_are_each_found(
    tmp_path: Path,
) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## Client → server\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## A `code` heading\n\n"
        "[fine](other.md#client--server) [fine too](other.md#twice-1) [here](#a-code-heading)\n"
        "![picture](missing.png) [gone](gone.md) [no such part](other.md#nothing)\n"
        "`[in code](ignored.md)` [web](https://example.org/x.md) [page](/rules#R-7.4)\n"
        "```\n[in a fence](ignored.md)\n```\n"
    )
    assert broken_links(page) == [
        "missing.png: no such file",
        "gone.md: no such file",
        "other.md#nothing: no heading #nothing in other.md",
    ]
    assert broken_mentions('docs/protocol.md, "Padding" and docs/protocol.md, "No such"') == [
        'docs/protocol.md, "No such": no such heading'
    ]
    assert broken_mentions("docs/nothing.md") == ["docs/nothing.md: no such file"]
    assert broken_mentions('README, "Quick start" and README, "Nowhere"') == [
        'README, "Nowhere": no such heading'
    ]
