"""The mutation check (`make mutants`): realistic bugs planted one at a time in a copy of the
tree, each with the tests of the suite that should catch it. A bug is killed when one of its
tests fails; one that survives names a rule or a secret no test guards.

    python devtools/mutants.py             each mutant: `id: killed by <test>` or `id: SURVIVED`
    python devtools/mutants.py --list      the mutants, one a line
    python devtools/mutants.py --only ID…  some of them; `-j 2` runs two at once

A mutant replaces a snippet found exactly once in its file: one whose snippet went missing or
became ambiguous is refused (and tests/test_mutants.py fails), so no mutant rots into planting
nothing. Each selection of tests must pass unmutated first, or its kills prove nothing; the
planting and running are in devtools/mutation.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

# Run as `python devtools/mutants.py`, the script finds the devtools package from the repo root.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from devtools.mutation import BaselineFailed, Mutant, outcomes

# The engine (court/, elections/), what each viewer may see, the service and its store, and who
# may send what over HTTP and Socket.IO.
AREAS = ("engine", "observer", "service", "authz")
TIMEOUT = 300.0  # seconds one run of a selection may take, mutated or not


def _m(id: str, area: str, path: str, bug: str, old: str, new: str, *tests: str) -> Mutant:
    return Mutant(id, area, path, bug, old, new, tests)


# The talk service counts a line against the sender's limit, then stores it.
_TAKE = "        self.rate.take(game_id, sender)\n"
_SAID = (
    "        said = Said(\n"
    "            game_id=game_id,\n"
    "            channel=channel,\n"
    "            sender=sender,\n"
    "            recipients=recipients,\n"
    "            court_version=self.court.latest(game_id).version,\n"
    "            said_at=iso_time(self.clock()),\n"
    "            text=text,\n"
    "        )\n"
    "        line = self._store(said)\n"
)

# The hash chain's own tests, on SQLite.
_CHAIN = tuple(
    f"tests/server/store/test_chain.py::{test}[sqlite]"
    for test in (
        "test_an_edited_public_part_is_found_at_its_record",
        "test_an_edited_time_or_seat_is_found",
        "test_a_record_edited_and_hashed_again_is_found_at_the_record_after_it",
        "test_a_removed_record_is_found",
        "test_reordered_records_are_found",
    )
)
MUTANTS: tuple[Mutant, ...] = (
    # -- the engine: court/ and elections/ -------------------------------------------------
    _m(
        "tally-minimum",
        "engine",
        "elections/tally.py",
        "a leader with exactly the minimum of votes is not elected (R-7.1)",
        "    if top < minimum:\n",
        "    if top <= minimum:\n",
        "tests/elections/test_tally.py",
    ),
    _m(
        "turns-skip-first-player",
        "engine",
        "elections/turns.py",
        "the turns start one seat after the First Player (R-1.1)",
        "        order = (*seats[i:], *seats[:i])\n",
        "        order = (*seats[i + 1 :], *seats[: i + 1])\n",
        "tests/elections/test_turns.py",
    ),
    _m(
        "decree-steps-swapped",
        "engine",
        "court/model/steps.py",
        "the false idols come before the marriages in phase 1 (R-4.2)",
        "DECREES = (MARRIAGES, FALSE_IDOLS, ",
        "DECREES = (FALSE_IDOLS, MARRIAGES, ",
        "tests/court/test_round.py",
    ),
    _m(
        "invariant-alliances-dropped",
        "engine",
        "court/soundness/invariants.py",
        "the alliance invariants are no longer checked (R-4.7, R-5.2, R-5.4)",
        "    _alliances,\n",
        "",
        "tests/court/test_invariants.py",
    ),
    _m(
        "marry-a-married-noble",
        "engine",
        "court/decide/marriages.py",
        "a Noble who is already married may marry again (R-5.1)",
        "        and noble.spouse is None\n",
        "",
        "tests/court/test_decrees.py",
    ),
    _m(
        "outlaw-stands",
        "engine",
        "court/options/electorate.py",
        "an Outlaw may stand for election (R-7.2)",
        '    """R-7.2: captive, Outlaw and dead Nobles never stand."""\n    return may_vote(noble)',
        '    """R-7.2: captive, Outlaw and dead Nobles never stand."""\n'
        "    return noble.status in (NobleStatus.IN_PLAY, NobleStatus.BROTHER)",
        "tests/court/test_elections.py",
    ),
    _m(
        "sept-without-gold",
        "engine",
        "court/decide/purchases.py",
        "a Sept is built by a House that cannot pay for it (R-2.1, R-4.6)",
        "    afford(state, house, settings.sept_cost)\n",
        "",
        "tests/court/test_purchases.py",
    ),
    _m(
        "death-keeps-titles",
        "engine",
        "court/decide/consequences.py",
        "a Noble who dies keeps his titles (R-1.4)",
        '    events += lose_titles(state, noble, "its holder died", keep=returned)\n',
        "",
        "tests/court/test_facts_life.py",
    ),
    _m(
        "returned-title-stays",
        "engine",
        "court/evolve/titles.py",
        "a title returned to the board (a dead or outlawed holder's) stays with its holder",
        "        titles={t: n for t, n in state.titles.items() if t != e.title},\n",
        "        titles=state.titles,\n",
        "tests/court/test_facts_life.py",
    ),
    _m(
        "chain-without-previous-hash",
        "engine",
        "court/log/chain.py",
        "a record's hash leaves out the previous record's hash",
        'payload = f"{prev_hash}\\n{meta_json}\\n{data_json}\\n{private_sha256}"',
        'payload = f"{meta_json}\\n{data_json}\\n{private_sha256}"',
        *_CHAIN,
    ),
    _m(
        "chain-without-seat",
        "engine",
        "court/log/chain.py",
        "a record's hash leaves out its acting seat",
        """f'"schema_version":{schema_version},"seat":{"null" if seat is None else seat},'""",
        """f'"schema_version":{schema_version},'""",
        *_CHAIN,
    ),
    # -- the observer: what each viewer may see ----------------------------------------------
    _m(
        "ballot-markers-of-all",
        "observer",
        "court/views/court.py",
        "a seat's court view shows every seat's markers, FOR and DECOY, before the reveal",
        "        for m in election.placements.get(viewer.seat, ())\n",
        "        for placed in election.placements.values()\n        for m in placed\n",
        "tests/server/live/test_sockets.py",
    ),
    _m(
        "private-parts-told-to-all",
        "observer",
        "court/views/observer.py",
        "the history and the pushes show every private part, a sealed bid's amount among them",
        "        private = record.private if self.sees_private(record) else None\n",
        "        private = record.private\n",
        "tests/server/http/test_purchases_http.py",
    ),
    _m(
        "private-parts-of-every-seat",
        "observer",
        "court/views/observer.py",
        "any seated player sees the private parts of every seat",
        "mine = self.viewer.seat is not None and record.seat == self.viewer.seat",
        "mine = self.viewer.seat is not None",
        "tests/server/http/test_secrets.py",
    ),
    _m(
        "whisper-to-the-table",
        "observer",
        "server/service/talk.py",
        "a whisper is pushed to every party at the table, not to its addressee alone",
        "talk.whisper_channel(sender, party), sender, (party,), text)",
        "talk.whisper_channel(sender, party), sender, talk.parties(state), text)",
        "tests/server/live/test_talk_sockets.py",
    ),
    # -- the service: decide, check, append --------------------------------------------------
    _m(
        "refused-import-keeps-pages",
        "service",
        "server/store/sql.py",
        "an import refused half-way keeps the pages written before the refusal",
        "                        cursor.execute(self._save_snapshot.sql, row)\n"
        "                conn.commit()\n",
        "                        cursor.execute(self._save_snapshot.sql, row)\n"
        "                    conn.commit()\n",
        "tests/server/store/test_logs.py::test_an_import_refused_half_way_stores_nothing[sqlite]",
    ),
    _m(
        "talk-stored-then-refused",
        "service",
        "server/service/talk.py",
        "a line refused for talking too fast is stored all the same (the limit is taken after)",
        _TAKE + _SAID,
        _SAID + _TAKE,
        "tests/server/live/test_talk_sockets.py",
    ),
    _m(
        "invariants-unchecked",
        "service",
        "server/service/court_service.py",
        "the invariants are not checked before an append",
        "decide_move(state, command, actor, now, check=require_sound)",
        "decide_move(state, command, actor, now)",
        "tests/server/http/test_engine_defects.py",
    ),
    _m(
        "lost-race-not-refolded",
        "service",
        "server/service/court_service.py",
        "after losing a race on the expected version, the command is decided again on the "
        "same stale head",
        "                    self.current(game_id)\n                    self.pause(",
        "                    self.pause(",
        "tests/server/store/test_store.py::test_the_service_redecides_on_fresh_state_after_losing_a_race[sqlite]",
    ),
    _m(
        "version-lock-dropped",
        "service",
        "migrations/versions/0001_event_records.py",
        "the unique (game, version) pair, the optimistic lock, is left out of the schema",
        '        sa.UniqueConstraint("game_id", "version", '
        'name="uq_event_records_game_version"),\n',
        "",
        "tests/server/store/test_store.py::test_appending_with_a_stale_expected_version_is_refused_and_changes_nothing[sqlite]",
    ),
    # -- authorization over HTTP and Socket.IO -----------------------------------------------
    _m(
        "host-guard-any-seat",
        "authz",
        "court/decide/guards.py",
        "a host-only command is accepted from any seat",
        "    if not actor.host:\n",
        "    if actor.spectator:\n",
        "tests/hostile/test_authorization.py::test_a_forbidden_sender_is_refused_over_http[start-lannister]",
    ),
    _m(
        "hand-seat-as-host",
        "authz",
        "server/messages/message.py",
        "hand_seat is sent on as the host's, whoever sent it",
        "self.to_command(body), actor, signed_of(body))",
        'self.to_command(body), Actor(host=True) if self.name == "hand_seat" else actor, '
        "signed_of(body))",
        "tests/hostile/test_authorization.py::test_a_forbidden_sender_is_refused_over_socketio[hand_seat-lannister]",
    ),
    _m(
        "socket-keeps-old-actor",
        "authz",
        "court/model/tokens.py",
        "an open connection keeps the host's powers after the host role moved",
        "    if actor.token_sha256 is not None:\n"
        "        return actor_of(state, actor.token_sha256)\n",
        "",
        "tests/server/live/test_seat_sockets.py::test_the_host_role_handed_over_moves_the_host_powers_on_open_connections",
    ),
    _m(
        "http-no-token-read",
        "authz",
        "server/http/play.py",
        "over HTTP, a seat's move without a token is read and sent on: only the host's "
        "commands ask for one",
        "= caller if message.sender is Sender.ANYONE else player",
        "= player if message.sender is Sender.HOST else caller",
        "tests/server/http/test_errors.py::test_a_command_without_a_token_is_401",
        "tests/hostile/test_oversized.py::test_a_seat_command_without_a_good_token_is_refused_before_its_body_is_read",
    ),
    _m(
        "socket-no-token-read",
        "authz",
        "server/live/sockets.py",
        "over Socket.IO, a spectator's seat move is read and sent on: only the host's "
        "commands are refused unread",
        "        if actor.spectator and message.sender is not Sender.ANYONE:\n",
        "        if actor.spectator and message.sender is Sender.HOST:\n",
        "tests/hostile/test_oversized.py::test_a_spectator_connection_cannot_send_seat_commands_and_its_payload_is_not_read",
    ),
    _m(
        "other-game-token",
        "authz",
        "server/service/court_service.py",
        "a token of another game is taken as a spectator's instead of refused",
        '            raise BadToken("bad_token", "This token does not belong to any seat of this '
        'game.")\n',
        "            return SPECTATOR, head\n",
        "tests/hostile/test_authorization.py::test_a_token_of_no_seat_of_this_game_opens_no_connection[other_game]",
    ),
    _m(
        "webhook-open-to-seats",
        "authz",
        "server/http/webhook.py",
        "any seat may set, read, test and remove the host's webhook",
        "    if not actor.host:\n",
        "    if actor.spectator:\n",
        "tests/server/notify/test_webhook_notices.py::test_the_host_alone_sets_reads_tests_and_removes_the_webhook",
    ),
)


def check(mutants: Sequence[Mutant], jobs: int, timeout: float) -> int:
    """Print one line a mutant and the summary. Exit status 0 when every mutant was killed, 1
    when one survived, 2 when the check could not be made."""
    problems = [p for p in (m.problem() for m in mutants) if p]
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    started, survived = time.monotonic(), 0
    try:
        for mutant, run in outcomes(mutants, jobs, timeout):
            survived += run.passed
            print(f"{mutant.id}: {'SURVIVED' if run.passed else f'killed by {run.failed}'}")
            sys.stdout.flush()
    except BaselineFailed as failed:
        print(f"these tests fail on the unmutated tree:\n{failed}", file=sys.stderr)
        return 2
    print(f"mutants: {len(mutants)} killed: {len(mutants) - survived} survived: {survived}")
    print(f"time: {time.monotonic() - started:.0f} s")
    return 1 if survived else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Plant each mutant and run its tests.")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--only", nargs="+", metavar="ID", help="these mutants alone")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="runs at once (default 1)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds a run may take")
    args = parser.parse_args(argv)
    known = {m.id: m for m in MUTANTS}
    unknown = [i for i in args.only or () if i not in known]
    if unknown:
        parser.error(f"no such mutant: {', '.join(unknown)}")
    chosen = [known[i] for i in args.only] if args.only else list(MUTANTS)
    if args.list:
        for m in chosen:
            print(f"{m.id} [{m.area}] {m.path}: {m.bug}")
        return 0
    return check(chosen, max(1, args.jobs), args.timeout)


if __name__ == "__main__":
    sys.exit(main())
