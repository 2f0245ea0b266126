"""The court view's `table`: what the table decides together, alike for every viewer, since each
vote is public and recorded with who cast it. Whether a seat's player is connected is no part
of the court: the `presence` push says since when each seat has had none (docs/protocol.md)."""

from __future__ import annotations

import dataclasses
from typing import Any

from court.ids import Seat
from court.model.table import Correction
from court.sentences.table import told
from court.state import CourtState, GameStatus


def _needed(electors: int) -> int:
    """The fewest votes that are a strict majority of `electors` (court/model/table.py)."""
    return electors // 2 + 1


def _electors(counting: tuple[Seat, ...], seat: Seat) -> int:
    """The seats that vote on replacing `seat`: every other seat that counts (R-9.2)."""
    return sum(1 for s in counting if s != seat)


def _replace_votes(state: CourtState, counting: tuple[Seat, ...]) -> list[dict[str, Any]]:
    """Each seat some voted to replace, with every vote (`bot`: cast for the bot rather than a
    new link) and the votes its replacement needs."""
    table = state.table
    return [
        {
            "seat": seat,
            "voters": [
                {"seat": v, "at": at, "bot": table.chose_bot(seat, v)}
                for v, at in sorted(votes.items())
            ],
            "electors": _electors(counting, seat),
            "votes_needed": _needed(_electors(counting, seat)),
        }
        for seat, votes in sorted(table.replace.items())
        if seat in state.seats
    ]


def table_view(state: CourtState) -> dict[str, Any]:
    """`open`: the game is being played, so the table may vote. `replace`: each seat some voted
    to hand to a new link, with every vote and its time (only those cast since the seat's
    current absence began count, which `presence.seats_away_since` tells, and never before
    `replaced_at`, when that seat last went to a new link); `end`: the seats
    voting to end the game (`ended_by`: those whose votes ended it); `correction`: the host's
    proposal under vote; `made`: every correction the table accepted, in order; `replaced_by`:
    the seats whose votes handed each seat to the link it holds now; `bots`: the seats the bot
    plays. Only the seats that count vote and make majorities: a seat whose new player has not
    opened his link yet, or that the bot plays, counts for none (R-9.2)."""
    counting = state.counting()
    seats = len(counting)
    table = state.table
    return {
        "open": state.status is GameStatus.PLAYING,
        "replace_after": state.ruleset.profile.table_votes.replace_after,
        "replaced_at": [{"seat": s, "at": at} for s, at in sorted(table.replaced_at.items())],
        "replaced_by": [
            {"seat": s, "voters": list(voters)} for s, voters in sorted(table.replaced_by.items())
        ],
        "replace": _replace_votes(state, counting),
        "bots": sorted(table.bots),
        "end": {
            "voters": sorted(table.end),
            "seats": seats,
            "votes_needed": _needed(seats),
            "ended_by": list(table.ended_by),
        },
        "correction": None
        if table.correction is None
        else {
            **correction_view(state, table.correction),
            "accepted": sorted(table.accepted),
            "refused": sorted(table.refused),
            "seats": seats,
            "votes_needed": _needed(seats),
        },
        "made": [correction_view(state, c) for c in table.made],
    }


def correction_view(state: CourtState, c: Correction) -> dict[str, Any]:
    """A correction: the record it corrects (`version`), what that record said (`recorded`)
    and what the correction says (`proposed`), and a sentence telling both."""
    if c.fact == "gold":
        recorded: dict[str, Any] = {"amount": c.recorded_amount}
        proposed: dict[str, Any] = {"amount": c.amount}
    elif c.fact == "village_control":
        recorded, proposed = {"house": c.was_house}, {"house": c.house}
    else:
        recorded = {"status": "dead"}
        proposed = {
            "status": c.status,
            "captor": c.captor,
            "outlaw": c.outlaw,
            "candidacy": c.candidacy,
        }
    return {
        "version": c.version,
        "fact": c.fact,
        "subject": c.subject,
        "cause": c.cause,
        "recorded": recorded,
        "proposed": proposed,
        "text": told(dataclasses.asdict(c), state),
    }
