"""One readable sentence per log record, for the history ("Round 3, Warden of the North:
Robb Stark elected with 5 votes"). A module per subdomain, as court/events/ is split, each
with the table of its own events' sentences; names.py names the ids."""

from __future__ import annotations

from court.events import Event
from court.log.chain import Record
from court.log.codec import encode, upcast
from court.sentences import (
    bots,
    clocks,
    decrees,
    devices,
    elections,
    nobles,
    purchases,
    rounds,
    seats,
    setup,
    table,
    titles,
)
from court.sentences.base import Sentences
from court.state import CourtState

SENTENCES: Sentences = {
    **setup.SENTENCES,
    **rounds.SENTENCES,
    **elections.SENTENCES,
    **titles.SENTENCES,
    **nobles.SENTENCES,
    **decrees.SENTENCES,
    **purchases.SENTENCES,
    **clocks.SENTENCES,
    **seats.SENTENCES,
    **table.SENTENCES,
    **devices.SENTENCES,
    **bots.SENTENCES,
}


def describe(record: Record, state: CourtState) -> str:
    """The record as one sentence a player can read in the history, told with the court as it
    stood right after it. The record is read in the current shape of its type, through the
    codec's upcasters: a sentence never sees an old shape."""
    sentence = SENTENCES.get(record.type)
    if sentence is None:  # no event type of this server: its log could not be folded either
        return f"{record.type} (version {record.version})."
    return sentence(upcast(record.type, record.schema_version, record.data), state)


def tell(event: Event, state: CourtState) -> str:
    """An event not yet numbered in a log, told as the history would tell its record: from
    its public part only, with the court as it stood right after it."""
    name, data, _ = encode(event)
    sentence = SENTENCES.get(name)
    return sentence(data, state) if sentence is not None else f"{name}."
