"""The court view's sections, each declared once: its name (and the section it stands in), the
parts of the court it is made of, and which viewers are shown it alike. A view is its sections;
a push makes again only those whose parts changed and compares each once (server/live/views.py).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from court.commands import SPECTATOR, Actor, Command
from court.model import invites
from court.options import legal
from court.options.legal import legal_commands
from court.options.recordable import recordable
from court.state import CourtState
from court.views import court as c
from court.views.board import alliances_view, regions_view, titles_view
from court.views.clocks import clocks_view
from court.views.devices import devices_view
from court.views.ending import ending_view
from court.views.host_role import host_role_view, why_closed
from court.views.purchases import auction_view, offers_view, turns_view
from court.views.table import table_view

# A part a section may read beside the court's fields: the version the view shows.
VERSION = "version"


@dataclass(frozen=True, slots=True)
class Viewing:
    """Who a view is made for: the viewer, and the version at which the host last handed his
    seat to a new token (None: never; nothing the seat held sealed before is the viewer's)."""

    viewer: Actor
    handed_at: int | None
    # Who the viewer is, as a key of the sections made for him: a string keeps its hash.
    who: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        viewer = self.viewer
        object.__setattr__(self, "who", f"{viewer.seat}:{viewer.host:d}:{viewer.master:d}")


ANYONE = Viewing(SPECTATOR, None)
Make = Callable[[CourtState, int, Viewing], Any]
Shown = Callable[[CourtState, int, Viewing], Hashable]


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """One section of the court view. `reads`: every part of the court (CourtState's fields,
    and VERSION) `make` and `shown` read, through whatever they call, and `seats` for a
    section of a viewer's own (a seat's viewer, the host or not, stands in `seats`): the court
    is frozen and shares every part an event did not change, so while these parts are the
    very same objects the section is the same for every viewer. `shown`: the viewers shown one
    section have one key (a section of their own); None when every viewer is shown it alike.
    `within`: the section (seen alike) it stands in, present while that one is an object,
    which holds its key (null) when made.
    `whole`: it changes whole, never by finer parts (a padded secret, whose finer change
    would be as long as the secret). `pieces`: it is a list of their items, each piece made
    again only when what it reads changed (its reads are the pieces' and the key's)."""

    name: str
    reads: tuple[str, ...]
    make: Make
    shown: Shown | None = None
    within: str | None = None
    whole: bool = False
    pieces: tuple[Piece, ...] = ()

    @property
    def alike(self) -> bool:
        return self.shown is None

    # Where it stands in the view, as a JSON Pointer.
    path: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        path = f"/{self.within}/{self.name}" if self.within else f"/{self.name}"
        object.__setattr__(self, "path", path)


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece a section is made of, kept on its own while the parts of the court it `reads`
    are the same: the section is its pieces' items, in order."""

    name: str
    reads: tuple[str, ...]
    make: Callable[[CourtState, Viewing], tuple[Any, ...]]
    # A piece that reads much but is most often empty: while `idle` holds of the court before
    # and of the new one, it lists nothing for any viewer in either, and is kept.
    idle: Callable[[CourtState], bool] | None = None


def alike(name: str, reads: Iterable[str], make: Callable[[CourtState], Any]) -> Section:
    """A section every viewer is shown alike, made of the court alone."""
    return Section(name=name, reads=tuple(reads), make=lambda state, _version, _seen: make(state))


# -- who is shown what ------------------------------------------------------------------------


def _actor(_state: CourtState, _version: int, seen: Viewing) -> Hashable:
    return seen.who


def _recorder(_state: CourtState, _version: int, seen: Viewing) -> Hashable:
    return seen.viewer.recorder


def _viewer(state: CourtState, _version: int, seen: Viewing) -> Hashable:
    return (seen.viewer, seen.handed_at, c.handed_by(state, seen.viewer))


def _markers_of(state: CourtState, version: int, seen: Viewing) -> Hashable:
    """The viewer's seat and the commitments whose secrets are not his (None: all of them)."""
    return (seen.viewer.seat, c.withheld(state, version, seen.viewer, seen.handed_at))


def _host_role_of(state: CourtState, _version: int, seen: Viewing) -> Hashable:
    return why_closed(state, seen.viewer)


# -- the sections -----------------------------------------------------------------------------

GAME_READS: tuple[str, ...] = (
    *("game_id", "status", "name", "players", "host_name", "listed"),
    *("game_master_name", "rules", "round", "phase", "step", "first_player"),
    *("seat_order", "dice_seed_sha256", "dice_seed"),
)


def kind_of_move(
    name: str,
    reads: tuple[str, ...],
    moves: Callable[[CourtState, Actor], list[Command]],
    idle: Callable[[CourtState], bool] | None = None,
) -> Piece:
    """The moves of one kind `legal.legal_commands` lists, as commands (the server names each
    as the message that sends it). Every kind reads who moves a seat while the game is played:
    its player or the bot."""
    reads = (*reads, *(part for part in MOVER if part not in reads))
    return Piece(name, reads, lambda s, w: tuple(moves(s, w.viewer)), idle)


# The parts of the court that say whether the bot plays a seat (court/options/legal.py
# `_bot_plays`).
MOVER = ("status", "table")


def _no_correction(state: CourtState) -> bool:
    return state.table.correction is None


# Every part of the court, for what is judged on all of it.
EVERY_PART = tuple(f.name for f in fields(CourtState))
# The parts of the court `legal.turn_order` reads; each kind of move reads the game's status.
TURNS = ("first_player", "seat_order")
COURT = ("status", "rules", "seats", "nobles", "titles")
MOVE_KINDS = (
    kind_of_move("seat_back", MOVER, legal.seat_back_moves),
    kind_of_move("lobby", (*COURT, "players", "listed", "invite_sha256"), legal.lobby_moves),
    kind_of_move("title", (*COURT, "pending", "villages"), legal.title_moves),
    kind_of_move(
        "decree",
        (
            *(*COURT, *TURNS, "pending", "decree", "proposal", "players", "alliances"),
            *("treasury", "villages", "septs", "septs_banned", "step", "dice_seed"),
        ),
        legal.decree_moves,
    ),
    kind_of_move(
        "election",
        (*COURT, *TURNS, "pending", "election", "round_titles", "villages"),
        legal.election_moves,
    ),
    kind_of_move(
        "purchase",
        (
            *(*COURT, *TURNS, "pending", "phase", "step", "round", "treasury", "ledger"),
            *("villages", "septs", "septs_banned", "auction", "purchase_turns", "fourth_seat"),
            "king_granted_round",
        ),
        legal.purchase_moves,
    ),
    kind_of_move("ransom", (*COURT, "offers", "treasury"), legal.ransom_moves),
    kind_of_move("host", ("status", "rules", "pending", "phase", "auction"), legal.host_moves),
    kind_of_move("table", ("status", "seats", "table"), legal.table_moves),
    # Whether a correction may be accepted is judged on the whole court after it.
    kind_of_move("answers", EVERY_PART, legal.answer_moves, idle=_no_correction),
    kind_of_move("withdraw", ("status", "table"), legal.withdraw_moves),
)
MOVES_READS = tuple(sorted({part for kind in MOVE_KINDS for part in kind.reads}))
FACTS_READS = ("status", "rules", "nobles", "titles", "villages", "treasury", "seats")
CLOCKS_READS: tuple[str, ...] = (
    *("rules", "status", "seats", "banks", "running", "election", "pending"),
    *("decree", "proposal", "auction", "purchase_turns", "phase"),
)

SECTIONS: tuple[Section, ...] = (
    # The game, and within it the version the view shows, which changes at every push.
    Section(name="game", reads=GAME_READS, make=lambda s, _v, _w: c.game_view(s, None)),
    Section(name="version", within="game", reads=(VERSION,), make=lambda _s, v, _w: v),
    alike("seats", ("seats", "host_votes"), c.seats_view),
    alike("houses", ("rules", "seats", "nobles", "titles", "treasury"), c.houses_view),
    alike("alliances", ("alliances", "seats"), alliances_view),
    alike("titles", ("rules", "titles"), titles_view),
    alike("decree", ("decree", "proposal"), c.decree_view),
    alike("purchases", ("purchase_turns",), lambda s: turns_view(s.purchase_turns)),
    alike("fourth_seat", ("fourth_seat",), lambda s: s.fourth_seat),
    alike("pending", ("pending",), lambda s: c.pending_view(s.pending)),
    alike("auction", ("auction",), lambda s: auction_view(s.auction)),
    alike("offers", ("offers",), lambda s: offers_view(s.offers)),
    alike("regions", ("rules", "villages", "septs"), regions_view),
    alike("clocks", CLOCKS_READS, clocks_view),
    alike("table", ("rules", "seats", "nobles", "status", "table"), table_view),
    alike("ending", ("ending", "winners", "round", "seats", "rules"), ending_view),
    alike("devices", ("devices",), devices_view),
    Section(
        name="viewer",
        reads=("seats", "table"),
        shown=_viewer,
        make=lambda s, _v, w: c.viewer_view(*_who(w), c.handed_by(s, w.viewer)),
    ),
    # Seen alike, with a spectator's own markers (none): each viewer's are his own section.
    alike("election", ("election",), lambda s: c.election_view(s.election, SPECTATOR)),
    Section(
        name="my_markers",
        within="election",
        reads=("election", "seats", VERSION),
        shown=_markers_of,
        make=lambda s, v, w: (
            c.my_markers(s.election, w.viewer, c.withheld(s, v, w.viewer, w.handed_at))
            or NO_MARKERS
        ),
        whole=True,
    ),
    Section(
        name="moves",
        reads=MOVES_READS,
        shown=_actor,
        make=lambda s, _v, w: list(legal_commands(s, w.viewer)),
        pieces=MOVE_KINDS,
    ),
    Section(
        name="host_role",
        reads=("rules", "seats", "host_votes", "status", "table"),
        shown=_host_role_of,
        make=lambda s, _v, w: host_role_view(s, w.viewer),
    ),
    # The invite secret opens a private game: it is the host's and the game master's alone.
    Section(
        name="invite",
        reads=("status", "dice_seed", "invite_sha256", "seats"),
        shown=_recorder,
        make=lambda s, _v, w: invites.of(s) if w.viewer.recorder else None,
    ),
    # The facts the host or the game master may record now, for their panel to offer.
    Section(
        name="facts",
        reads=FACTS_READS,
        shown=_recorder,
        make=lambda s, _v, w: recordable(s) if w.viewer.recorder else None,
    ),
)
ALIKE = tuple(s for s in SECTIONS if s.alike)
OWN = tuple(s for s in SECTIONS if not s.alike)
WHOLE = frozenset(s.path for s in SECTIONS if s.whole)
# Every part of the court some section reads, and every piece of a section by its name.
PARTS = tuple(sorted({part for s in SECTIONS for part in s.reads} - {VERSION}))
PIECES = tuple((f"{s.name}/{p.name}", p) for s in SECTIONS for p in s.pieces)


# A viewer's own markers when he has none: one list for all (never changed), so that a push
# finds them unchanged by identity.
NO_MARKERS: list[Any] = []


def _who(seen: Viewing) -> tuple[Actor, int | None]:
    return seen.viewer, seen.handed_at
