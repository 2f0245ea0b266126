"""The court view's `table` (docs/rules-map.md, "The table decides together"): every audience sees
the open votes with who cast them, the correction under vote with the record it corrects and
what it proposes, the corrections made and who ended the game, and nothing sealed."""

from __future__ import annotations

from court.commands import SPECTATOR, AnswerCorrection, RecordVillageControl, VoteToEnd
from court.events import VillageControlChanged
from court.ids import HouseId, Seat, VillageId
from court.views.made import court_view
from server.http.view_schemas import CourtViewSchema
from server.messages.views import named
from tests.court.given import HOST, seat
from tests.court.table_votes_given import HOST_SEAT, LATER, propose, replace_vote, table, version_of

VIEWERS = (SPECTATOR, HOST_SEAT, seat(1), seat(2))


def views(court) -> list[dict]:  # type: ignore[no-untyped-def]
    return [court_view(court.state, len(court.events), v) for v in VIEWERS]


def test_every_audience_sees_the_open_votes_and_who_cast_them() -> None:
    """Given seat 0 voted to replace seat 2 (gone) and seat 1 voted to end the game, then every
    audience's `table` names both votes and the majorities they need, alike for all."""
    court = table(4)
    court.act(replace_vote(2), HOST_SEAT, LATER)
    court.act(VoteToEnd(), seat(1))

    shown = [v["table"] for v in views(court)]

    assert all(t == shown[0] for t in shown)
    t = shown[0]
    assert t["open"] is True and t["replace_after"] == 600 and t["replaced_at"] == []
    assert t["replace"] == [
        {
            "seat": 2,
            "voters": [{"seat": 0, "at": LATER, "bot": False}],
            "electors": 3,
            "votes_needed": 2,
        }
    ]
    assert t["end"] == {"voters": [1], "seats": 4, "votes_needed": 3, "ended_by": []}
    assert t["correction"] is None and t["made"] == []
    # As GET /api/games/<id> documents it (the checkpoint is the server's, added there).
    shown = views(court)[2]
    wire = {**shown, "moves": named(shown["moves"])}  # as the server names them
    assert not CourtViewSchema().validate(wire, partial=("checkpoint",))


def test_a_correction_under_vote_shows_the_record_and_the_proposal_then_both_once_made() -> None:
    """Given the host recorded Stark taking a village and proposes Lannister held it, then the
    view shows the record's version, what it said and what the correction says, with the
    host's seat accepting and seat 1 refusing; once seat 2 accepts, it is among those made and
    no correction is under vote."""
    court = table(4)
    village = VillageId(court.state.ruleset.villages[0].id)
    court.act(RecordVillageControl(village=village, house=HouseId("stark"), cause="took it"))
    version = version_of(court, VillageControlChanged)
    court.act(propose(court, version, house=HouseId("lannister"), cause="misread"), HOST_SEAT)
    court.act(AnswerCorrection(accept=False), seat(1))

    open_ = views(court)[0]["table"]["correction"]

    assert (open_["version"], open_["fact"], open_["subject"]) == (
        version,
        "village_control",
        village,
    )
    assert (open_["recorded"], open_["proposed"]) == ({"house": "stark"}, {"house": "lannister"})
    assert (open_["accepted"], open_["refused"], open_["votes_needed"]) == ([0], [1], 3)
    assert f"version {version}" in open_["text"] and "Lannister" in open_["text"], open_["text"]

    court.act(AnswerCorrection(accept=True), seat(2))
    court.act(AnswerCorrection(accept=True), seat(3))
    after = views(court)[3]["table"]
    assert after["correction"] is None
    assert [(c["version"], c["proposed"]) for c in after["made"]] == [
        (version, {"house": "lannister"})
    ]


def test_the_view_names_the_seats_whose_votes_ended_the_game() -> None:
    court = table(3)
    court.act(VoteToEnd(), seat(1))
    court.act(VoteToEnd(), seat(2))
    shown = court_view(court.state, len(court.events), HOST)["table"]
    assert shown["open"] is False
    assert shown["end"]["ended_by"] == [Seat(1), Seat(2)] and shown["end"]["voters"] == []


def test_the_view_says_when_the_table_handed_a_seat_to_a_new_link() -> None:
    """Once the votes replace seat 2, they are cleared and `replaced_at` holds the time of the
    vote that made the majority: a page counts the new player's absence from then."""
    court = table(3)
    court.act(replace_vote(2), HOST_SEAT, LATER)
    court.act(replace_vote(2), seat(1), LATER + 5)
    shown = views(court)[0]["table"]
    assert shown["replace"] == []
    assert shown["replaced_at"] == [{"seat": 2, "at": LATER + 5}]
