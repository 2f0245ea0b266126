"""Sentences of what the table decided together: votes to replace a player and to end the
game, and corrections of recorded facts, told so that a reader sees both the record and what
corrected it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def _voters(state: CourtState, voters: list[int]) -> str:
    """The voters by name; "nobody" when no seat voted (a correction no seat that counts can
    carry any more is refused without a vote)."""
    named = [names.player(state, v) for v in voters]
    if not named:
        return "nobody"
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"


def _gold(amount: int) -> str:
    if amount == 0:
        return "nothing"
    return f"a {'gain' if amount > 0 else 'loss'} of {names.gold(abs(amount))}"


def told(c: Mapping[str, Any], state: CourtState) -> str:
    """What a correction says: "the death of X recorded at version 41 was corrected: X
    lives"."""
    at = f"recorded at version {c['version']}"
    subject = c["subject"]
    if c["fact"] == "death":
        who = names.noble(state, subject)
        standing = c.get("candidacy")
        again = f" and stands again for {names.election(state, standing)}" if standing else ""
        return f"the death of {who} {at} was corrected: {who} lives{again}"
    if c["fact"] == "gold":
        house = names.house(state, subject)
        return (
            f"{_gold(c['recorded_amount'])} for {house} {at} was corrected to {_gold(c['amount'])}"
        )
    place = names.village(state, subject)
    holder = names.house(state, c["house"]) if c["house"] else "nobody"
    was = names.house(state, c["was_house"]) if c["was_house"] else "nobody"
    return f"{place} held by {was} {at} was corrected: {holder} holds it"


def _replace_vote_cast(d: Data, state: CourtState) -> str:
    return (
        f"{names.player(state, d['seat'])} voted to hand the seat of "
        f"{names.player(state, d['for_seat'])}, away, to {_choice(d)}."
    )


def _seat_replaced(d: Data, state: CourtState) -> str:
    return (
        f"{d['player_name']}'s seat ({names.house(state, d['house'])}) goes to {_choice(d)}: "
        f"{_voters(state, d['voters'])} voted for it, {d['votes']} of the {d['seats']} "
        "other seats."
    )


def _choice(d: Data) -> str:
    return "the bot" if d.get("bot") else "a new link"


def _end_vote_cast(d: Data, state: CourtState) -> str:
    return f"{names.player(state, d['seat'])} voted to end the game."


def _end_vote_withdrawn(d: Data, state: CourtState) -> str:
    return f"{names.player(state, d['seat'])} took back the vote to end the game."


def _table_ended_game(d: Data, state: CourtState) -> str:
    return (
        f"The table ended the game: {_voters(state, d['voters'])} voted for it, "
        f"{d['votes']} of the {d['seats']} seats. Nobody won."
    )


def _correction_proposed(d: Data, state: CourtState) -> str:
    c = d["correction"]
    return (
        f"The host proposed a correction: {told(c, state)} ({c['cause']}). Each seat accepts "
        "or refuses it."
    )


def _correction_answered(d: Data, state: CourtState) -> str:
    answer = "accepted" if d["accept"] else "refused"
    return f"{names.player(state, d['seat'])} {answer} the correction."


def _correction_withdrawn(d: Data, state: CourtState) -> str:
    return f"The host withdrew the correction of the record at version {d['version']}."


def _correction_refused(d: Data, state: CourtState) -> str:
    return (
        f"The correction of the record at version {d['version']} was refused by "
        f"{_voters(state, d['voters'])}, {d['refusals']} of the {d['seats']} seats; the record "
        "stands."
    )


def _correction_made(d: Data, state: CourtState) -> str:
    told_ = told(d["correction"], state)
    return (
        f"{told_[0].upper()}{told_[1:]}: {_voters(state, d['voters'])} accepted, "
        f"{d['votes']} of the {d['seats']} seats. The record stays in the log as it was."
    )


def _correction_lapsed(d: Data, state: CourtState) -> str:
    return (
        f"The correction of the record at version {d['version']} lapsed: {d['reason']}. The "
        "record stands."
    )


def _noble_restored(d: Data, state: CourtState) -> str:
    return f"{names.noble(state, d['noble'])} is back in play ({d['cause']})."


def _candidacy_restored(d: Data, state: CourtState) -> str:
    return (
        f"{names.noble(state, d['noble'])} stands again for "
        f"{names.election(state, d['election'])}; markers on him count ({d['cause']})."
    )


SENTENCES: Sentences = {
    "ReplaceVoteCast": _replace_vote_cast,
    "SeatReplaced": _seat_replaced,
    "EndVoteCast": _end_vote_cast,
    "EndVoteWithdrawn": _end_vote_withdrawn,
    "TableEndedGame": _table_ended_game,
    "CorrectionProposed": _correction_proposed,
    "CorrectionAnswered": _correction_answered,
    "CorrectionWithdrawn": _correction_withdrawn,
    "CorrectionRefused": _correction_refused,
    "CorrectionMade": _correction_made,
    "CorrectionLapsed": _correction_lapsed,
    "NobleRestored": _noble_restored,
    "CandidacyRestored": _candidacy_restored,
}
