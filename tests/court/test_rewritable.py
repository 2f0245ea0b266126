"""Which public parts a page may hash from what it is shown (court/views/observer.py): those
whose canonical JSON a page writes character for character as the server does."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from court.views.observer import _rewritable

EXACT = 2**53

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False),
    st.text(max_size=5),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=4), inner, max_size=4)
        | st.tuples(inner)
    ),
    max_leaves=12,
)


def rule(value: Any) -> bool:
    """The rule as stated: strings, booleans and nulls; integers a double holds exactly;
    objects with ASCII keys and lists of such values; nothing else (a float, a tuple)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if type(value) is int:
        return -EXACT < value < EXACT
    if type(value) is dict:
        return all(k.isascii() and rule(v) for k, v in value.items())
    if type(value) is list:
        return all(rule(v) for v in value)
    return False


@given(values)
def test_a_value_is_rewritable_exactly_when_the_rule_says(value: Any) -> None:
    """Given any JSON-like value, when it is checked, then it is rewritable exactly when
    the rule above holds of it."""
    assert _rewritable(value) is rule(value)


def test_the_edges_of_what_a_page_holds() -> None:
    """Given the edges, then a float, a non-ASCII key and an integer past 2**53 anywhere
    inside make a part one the page cannot rewrite, and the ordinary part is one it can."""
    assert _rewritable({"seat": 1, "markers": [{"kind": "for", "n": None, "ok": True}]})
    assert not _rewritable({"a": [1, {"b": 1.0}]})
    assert not _rewritable({"a": {"é": 1}})
    assert not _rewritable({"a": [EXACT]})
    assert _rewritable({"a": [EXACT - 1, -(EXACT - 1)]})
