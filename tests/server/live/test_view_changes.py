"""The change a push carries (server/live/views.py `diff`): for any two JSON values, the
patch applied by a JSON Patch library (RFC 6902, `jsonpatch`) turns the first into the
second, and a value met twice is compared once."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from server.live.views import diff

leaves = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", "c/d", "~"])
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.sampled_from(["x", "y", "z", "a/b", "m~n"]), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(values, values)
def test_the_patch_turns_any_value_into_any_other(old: Any, new: Any) -> None:
    before = {"court": old}
    ops = diff(before, {"court": new}, {})
    assert jsonpatch.apply_patch(copy.deepcopy(before), ops) == {"court": new}


@settings(max_examples=200, deadline=None)
@given(st.lists(values, max_size=6), st.integers(0, 6), values)
def test_an_item_put_in_or_taken_out_of_a_list_is_one_operation(
    items: list[Any], at: int, item: Any
) -> None:
    at = min(at, len(items))
    grown = [*items[:at], item, *items[at:]]
    assert len(diff({"l": items}, {"l": grown}, {})) == 1
    assert len(diff({"l": grown}, {"l": items}, {})) == 1


def test_a_viewers_own_markers_change_whole() -> None:
    """An operation on a field of one marker would be as long as the secret it changes."""
    mine = [{"commitment": "c1", "kind": "for", "pad": "  "}]
    theirs = [{"commitment": "c1", "kind": "decoy", "pad": ""}]
    ops = diff({"election": {"my_markers": mine}}, {"election": {"my_markers": theirs}}, {})
    assert ops == [{"op": "replace", "path": "/election/my_markers", "value": theirs}]


def test_sections_shared_by_several_views_are_compared_once() -> None:
    shared_old, shared_new = {"houses": [1, 2]}, {"houses": [1, 3]}
    memo: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    first = diff({"s": shared_old, "v": 1}, {"s": shared_new, "v": 2}, memo)
    second = diff({"s": shared_old, "v": 5}, {"s": shared_new, "v": 6}, memo)
    assert first[0] is second[0]  # the very same operation, found once
