"""Messages of what the table decides together: a vote to replace a player gone for the
profile's time, a vote to end the game, the host's correction of a recorded fact and the seats'
answers to it."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from court.commands import (
    AnswerCorrection,
    ProposeCorrection,
    TakeSeatBack,
    VoteToEnd,
    VoteToReplace,
    WithdrawCorrection,
)
from server.messages.fields import VERSION_MAX, Bool, Cause, Id, Int, Shape
from server.messages.message import Message, Sender


class ReplaceSchema(Shape):
    seat = Int(required=True, validate=validate.Range(0, VERSION_MAX))
    bot = Bool(load_default=False)


class EndSchema(Shape):
    end = Bool(load_default=True)


class CorrectionSchema(Shape):
    version = Int(required=True, validate=validate.Range(1, VERSION_MAX))
    house = Id(load_default=None, allow_none=True)
    amount = Int(load_default=None, allow_none=True, validate=validate.Range(-1000, 1000))
    cause = Cause()


class AnswerSchema(Shape):
    accept = Bool(required=True)


class ReplacedSchema(Schema):
    ok = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    token = fields.String(
        metadata={
            "description": "The replaced seat's new secret token, to the seat whose vote made "
            "the majority (every seat that voted for it reads it from GET "
            "/api/games/<id>/table/links until its new player opens it); absent while the "
            "vote is short of a majority"
        }
    )


TABLE: tuple[Message, ...] = (
    Message(
        "vote_replace",
        VoteToReplace,
        "a seat other than the absent one, in a started game",
        "Vote to hand the seat of a player who has had no connection for the profile's "
        "`table_votes.replace_after` (15 minutes unless the game says otherwise) to a new "
        "link, or to the bot (`bot: true`); a strict majority of the other seats' votes cast "
        "since his absence began, all for the same choice, replaces it (`SeatReplaced` names "
        "the voters); only the seats that count vote and make the majority. A new link: "
        "exactly as a host's hand-over does, the new link opens nothing the seat held sealed "
        "before, and the seat starts afresh until its new player says his name (R-9.2); the "
        "voter who makes the majority receives the link in the answer, and every voter for it "
        "from GET /api/games/<id>/table/links, until the new player opens it. The bot: it "
        "plays the seat's moves (`BotSeated`, then `BotPlayed` before each) until its player "
        "opens his own link again or a new link is voted. Refused in the lobby (`game_lobby`), "
        "while he is connected (`seat_present`), for the host's seat (`replace_host`), from a "
        "seat not claimed yet (`seat_unclaimed`) and for the bot where it plays already "
        "(`bot_plays`)",
        ReplaceSchema,
        answer=ReplacedSchema,
        example={"seat": 1, "bot": False},
    ),
    Message(
        "take_seat_back",
        TakeSeatBack,
        "the seat the bot plays, with its own link",
        "Play the seat again after the bot played it while you were away (`BotStoodDown`); a "
        "page opened with the seat's link sends it by itself. Refused where the bot does not "
        "play the seat (`no_bot`)",
        None,
    ),
    Message(
        "vote_end",
        VoteToEnd,
        "any seat, in a started game",
        "Vote to end the game now (`end: false` takes the vote back): a strict majority of "
        "the seats that count (R-9.2) ends it without winners, the standings recorded "
        "(`TableEndedGame` names the voters, `GameEnded` follows, after the refund of a price "
        "the bank held, R-4.6); afterwards the game is read-only",
        EndSchema,
        example={"end": True},
    ),
    Message(
        "propose_correction",
        ProposeCorrection,
        "host, in a started game",
        "Propose to correct the fact recorded at `version` (the record of the death, the "
        "village or the Gold Dragons, not the note of who recorded it): a death is corrected "
        "to 'he lives', a village to its holder `house` (null: nobody), Gold Dragons to "
        "`amount`. The host's seat accepts by proposing; the correction is made, as a "
        "compensating event after the untouched record, once a strict majority of the seats "
        "accepts, and refused once it no longer can. One at a time. Refused when a later "
        "record followed from the corrected one and the correction cannot undo it, when the "
        "court after it would break a rule, or when the record is a compensation or was "
        "recorded again since (R-9.1)",
        CorrectionSchema,
        Sender.HOST,
        example={"version": 12, "amount": 2, "cause": "it was 2, not 5"},
    ),
    Message(
        "answer_correction",
        AnswerCorrection,
        "any seat, while a correction is under vote",
        "Accept or refuse the host's correction under vote, once; an acceptance that would "
        "decide it is listed only when the correction can be carried out (R-9.1)",
        AnswerSchema,
        example={"accept": True},
    ),
    Message(
        "withdraw_correction",
        WithdrawCorrection,
        "host, while a correction is under vote",
        "Withdraw the correction under vote",
        None,
        Sender.HOST,
    ),
)
