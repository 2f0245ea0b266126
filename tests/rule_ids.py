"""The ids of the court rules (docs/rules.md), section by section, as the tests that cite
them count them."""

from __future__ import annotations

RULE_IDS = [
    f"R-{section}.{n}"
    for section, count in ((1, 4), (2, 2), (3, 10), (4, 8), (5, 4), (6, 7), (7, 8), (8, 5), (9, 2))
    for n in range(1, count + 1)
]
