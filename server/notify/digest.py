"""What a game's chat is told of each command, by the digest its host chose for the webhook:
every move (each record the history tells, and whose turn it is whenever that changes), step
summaries (what a step changed, told together when it ends or comes to its result, and whose
turn it is as the next one begins), or results only (elections, the council seat's sale, the
end of the game). The sender (sender.py) posts what arrives within a few seconds as one post.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from court.log import provenance
from court.log.chain import Record
from court.state import CourtState
from court.views.waiting import awaited
from server.notify.texts import KEY_MAX, lead, names_typed, record_text, turn_text
from server.store.notices import Notice


class Digest(StrEnum):
    MOVES = "moves"
    STEPS = "steps"
    RESULTS = "results"


# What the chat is told under each digest, as the host's page and the test post say it.
TOLD = {
    Digest.MOVES: "every move, whose turn it is, each result and the end of the game",
    Digest.STEPS: "what each step changed when it ends, whose turn it is as the next step "
    "begins, each result and the end of the game",
    Digest.RESULTS: "each election's result, the sale of the council seat and the end of the game",
}

RESULTS = frozenset({"BallotsRevealed", "BidsRevealed", "GameEnded"})
# A player's move that changes nothing by itself (a pass, a candidacy, a vote cast, a marker
# placed): every move tells it, a step's summary tells what came of it.
MOVES = frozenset(
    {
        "BallotPlaced",
        "BidPassed",
        "BidPlaced",
        "CandidacyPassed",
        "CandidateStood",
        "CorrectionAnswered",
        "DecreePassed",
        "DieRolled",
        "EndVoteCast",
        "EndVoteWithdrawn",
        "GameListed",
        "GameUnlisted",
        "HostVoteCast",
        "HostVoteWithdrawn",
        "PurchasesDone",
        "ReplaceVoteCast",
    }
)


def tells(digest: Digest, record_type: str) -> bool:
    """Whether a record of this type is told under `digest`. Bookkeeping (clocks, a phase
    begun, a fact's note beside the fact itself) never is."""
    if record_type in RESULTS:
        return True
    if digest is Digest.RESULTS:
        return False
    kind = provenance.kind_of(record_type)
    if digest is Digest.MOVES:
        return kind is not provenance.Kind.BOOKKEEPING
    return kind is provenance.Kind.PLAY and record_type not in MOVES


@dataclass(frozen=True, slots=True)
class Told:
    """The turn and the step the chat was told of last (a turn is told once), and whether
    notices may be held for that step (not known for a game not seen since the start)."""

    turn: str | None = None
    place: str | None = None
    held: bool = True


@dataclass(frozen=True, slots=True)
class Notices:
    """A command's notices: to post now, or to hold until the step ends (`held`); `release`:
    the step ended, so the notices held for it are due now, before these."""

    now: list[Notice] = field(default_factory=list)
    held: list[Notice] = field(default_factory=list)
    release: bool = False


def notices_of(
    game_id: str, records: Sequence[Record], state: CourtState, told: Told, digest: Digest
) -> tuple[Notices, Told]:
    """The notices of one command under `digest`, and what the chat is told of after it (to
    give as `told` next time)."""
    turn = awaited(state)
    key, place = (turn.key, turn.place) if turn is not None else (None, None)
    # A result ends what a step's summary tells: it is told at once.
    step_over = turn is None or place != told.place or any(r.type in RESULTS for r in records)
    if digest is Digest.RESULTS:
        new_turn = False
    elif digest is Digest.STEPS:
        new_turn = turn is not None and step_over
    else:
        new_turn = turn is not None and key != told.turn
    kept = [r for r in records if tells(digest, r.type)]
    release = digest is Digest.STEPS and step_over and told.held
    hold = digest is Digest.STEPS and not step_over
    after = Told(key, place, held=hold and (told.held or bool(kept)))
    if not kept and not new_turn and not release:
        return Notices(), after  # nothing to tell: the court need not be copied
    shown = names_typed(state)
    head = lead(shown)
    found = [Notice(game_id, f"record:{r.version}", record_text(r, shown), lead=head) for r in kept]
    if new_turn and turn is not None:
        key = f"turn:{turn.key}"[:KEY_MAX]
        found.append(Notice(game_id, key, turn_text(turn, shown), lead=head))
    if hold:
        return Notices(held=found), after
    return Notices(now=found, release=release), after
