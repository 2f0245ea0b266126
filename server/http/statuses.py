"""The HTTP status of every refusal, by its class: one table for the whole API. The engine's
and the service's errors carry a code and a sentence alone; Socket.IO answers with those two
and needs no status."""

from __future__ import annotations

from court.errors import BadRecord, BadToken, CourtError, NotAllowed, NotFound
from server.notify.mail import AddressRefused
from server.service.talk import TooFast

# The most specific class first: a refusal takes the status of the first class it is of.
STATUSES: tuple[tuple[type[CourtError], int], ...] = (
    (BadToken, 401),  # no token where one is needed, or one of no seat
    (NotAllowed, 403),  # this seat or role may not send it
    (NotFound, 404),  # no such game, version or profile
    (BadRecord, 400),  # a record that cannot be read
    (AddressRefused, 400),  # no address mail can reach
    (TooFast, 429),  # talk faster than its limit
)
REFUSED = 409  # every other refusal: the rules refuse it now (CorruptLog, Conflict, ...)


def status_of(error: CourtError) -> int:
    return next((status for kind, status in STATUSES if isinstance(error, kind)), REFUSED)
