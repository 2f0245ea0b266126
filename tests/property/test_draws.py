"""The property machine draws every command of the catalogue: a new message is played by it
without an entry of its own, and a field of a kind it cannot fill fails here."""

from __future__ import annotations

from hypothesis import given as hypothesis_given
from hypothesis import settings
from hypothesis import strategies as st

from server.messages.catalogue import CATALOGUE
from tests.court.given import given, started
from tests.property.draws import FACT_COMMANDS, OTHER_COMMANDS, Draws, commands, facts


def test_every_message_of_the_catalogue_is_drawn_as_a_fact_or_a_command() -> None:
    drawn = set(FACT_COMMANDS) | set(OTHER_COMMANDS)

    assert drawn == {message.command for message in CATALOGUE.values()}
    assert not set(FACT_COMMANDS) & set(OTHER_COMMANDS)


def test_every_field_of_every_command_has_values_to_draw_from() -> None:
    draws = Draws(given(*started(players=4)))

    for cls in (*FACT_COMMANDS, *OTHER_COMMANDS):
        draws.command(cls)  # raises TypeError naming a field of an unknown kind


@settings(max_examples=60, deadline=None, database=None)
@hypothesis_given(data=st.data())
def test_a_drawn_command_names_things_of_the_court_at_hand(data: st.DataObject) -> None:
    state = given(*started(players=3))
    known = {*state.nobles, *state.treasury, *(t.id for t in state.ruleset.titles)}
    known |= {v.id for v in state.ruleset.villages} | {f"newcomer-{n}" for n in range(4)}

    command = data.draw(st.one_of(commands(state), facts(state)))

    for name in ("noble", "to", "captive", "house", "title", "village", "candidate", "by"):
        value = getattr(command, name, None)
        assert value is None or value in known, (command, name)
