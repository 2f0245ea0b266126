"""A faster `dataclasses.replace` for the court state, which every event copies.

`dataclasses.replace` re-runs `__init__` with every field; on the replay path that
copy is most of the cost of an event. `replacer(cls)` builds, once per class, a
function that copies the slots directly and sets the changed ones. It is only
for frozen slot dataclasses without `__post_init__`, which it checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def replacer(cls: type[T]) -> Callable[..., T]:
    if not dataclasses.is_dataclass(cls) or not hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} is not a slot dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has __post_init__; use dataclasses.replace")
    names = [f.name for f in dataclasses.fields(cls)]
    lines = [f"def replace(state, /, *, {', '.join(f'{n}=_KEEP' for n in names)}):"]
    lines.append("    new = _new(_cls)")
    # Each slot's own descriptor sets it: no attribute lookup, and no frozen __setattr__.
    lines.extend(
        f"    _set_{i}(new, state.{n} if {n} is _KEEP else {n})" for i, n in enumerate(names)
    )
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_KEEP": object()}
    for i, n in enumerate(names):
        namespace[f"_set_{i}"] = _slot(cls, n).__set__
    exec("\n".join(lines), namespace)
    return namespace["replace"]


def _slot(cls: type, name: str) -> Any:
    """The member descriptor of a slot, from the class that declares it."""
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    raise TypeError(f"{cls.__name__} has no slot {name}")
