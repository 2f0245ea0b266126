"""Every notice of whole simulated games reads as a plain sentence: no rule id ("R-4.3",
"§9", "(section 9)"), no empty brackets or stray spaces left where one was; and each digest
tells what it promises (server/notify/digest.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config.rulesdata import load_ruleset
from court.evolve import evolve, initial
from court.ids import GameId
from court.log import codec
from court.log.chain import Record
from court.state import CourtState
from server.notify.digest import MOVES, RESULTS, Digest, Told, notices_of
from server.notify.texts import plain
from server.store.sql import SqlEventStore
from server.tools.simulate import simulate
from tests.fakes import KEYS

RULE_ID = re.compile(r"R-\d|§|section \d")
LEFT_OVER = re.compile(r"\(\s*\)|\s[.,;:]|  ")


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[list[tuple[Record, CourtState]]]:
    """Whole seeded games (every variant, random profiles), each record with the court after
    it."""
    path: Path = tmp_path_factory.mktemp("sentences") / "games.db"
    store = SqlEventStore(f"sqlite:///{path}")
    store.create_schema()
    played = []
    try:
        for seed, players in ((11, 3), (12, 4), (13, 5), (14, 6)):
            summary = simulate(
                store, load_ruleset(), players=players, rounds=4, seed=seed, keys=KEYS
            )
            state = initial(GameId(summary.game_id))
            told = []
            for record in store.read(summary.game_id):
                event = codec.decode(
                    record.type, record.schema_version, record.data, record.private
                )
                state = evolve(state, event)
                told.append((record, state))
            played.append(told)
    finally:
        store.close()
    return played


def test_every_notice_of_whole_games_reads_without_rule_ids(
    games: list[list[tuple[Record, CourtState]]],
) -> None:
    said = []
    for game in games:
        told = Told()
        for record, state in game:
            found, told = notices_of(state.game_id, [record], state, told, Digest.MOVES)
            said += [n.text for n in found.now]
    assert len(said) > 200
    assert [t for t in said if RULE_ID.search(t)] == []
    assert [t for t in said if LEFT_OVER.search(t)] == []


def test_step_summaries_hold_a_step_s_news_until_it_ends_and_tell_no_pass(
    games: list[list[tuple[Record, CourtState]]],
) -> None:
    for game in games:
        told, held, now = Told(), [], []
        for record, state in game:
            found, told = notices_of(state.game_id, [record], state, told, Digest.STEPS)
            held += found.held
            if found.release:
                now += held
                held = []
            now += found.now
        types = {key.split(":")[0] for key in (n.key for n in now)}
        assert types <= {"record", "turn"}
        versions = {int(n.key.split(":")[1]) for n in [*now, *held] if n.key.startswith("record")}
        told_types = {r.type for r, _ in game if r.version in versions}
        assert told_types.isdisjoint(MOVES), told_types & MOVES
        assert RESULTS & {r.type for r, _ in game} <= told_types


def test_a_plain_sentence_drops_the_rules_cited_and_nothing_a_player_typed() -> None:
    assert (
        plain("The clock ran out (R-4.3); timed out: Ann.") == "The clock ran out; timed out: Ann."
    )
    assert plain("Eddard (Join the Small Council (court event, R-3.5)).") == (
        "Eddard (Join the Small Council (court event))."
    )
    assert plain("it stays on the board (section 9).") == "it stays on the board."
    assert plain("nobody won (R-4.7: only the victory check names winners).") == "nobody won."
    assert plain("A name typed R\\-4\\.3 stays.") == "A name typed R\\-4\\.3 stays."
