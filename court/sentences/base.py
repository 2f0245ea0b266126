"""What every sentence module shares: the shape of a sentence function and of its table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from court.state import CourtState

# A record's public data, in the current shape of its type (court/log/codec.py's upcasters).
Data = Mapping[str, Any]
# One record as a sentence, told with the court as it stood right after it.
Sentence = Callable[[Data, CourtState], str]
# Event type name -> its sentence; each subdomain module has the table of its own events.
Sentences = dict[str, Sentence]
