"""The property machine draws every command of the catalogue: a new message is played by it
without an entry of its own, and a field of a kind it cannot fill fails here."""

from __future__ import annotations

from hypothesis import Phase, find, settings
from hypothesis import given as hypothesis_given
from hypothesis import strategies as st

from config.profile_rules import NOT_DRAWN, profile_problem
from config.rulesdata import load_ruleset
from court.commands import OfferRansom
from court.model.profile import SETTINGS
from court.options.legal import legal_commands
from server.messages.catalogue import CATALOGUE
from tests.court.given import given, seat, started
from tests.court.moments import captives
from tests.property.draws import FACT_COMMANDS, OTHER_COMMANDS, Draws, commands, facts
from tests.property.machine import CourtMachine


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


def test_each_example_of_the_machine_draws_every_setting_of_its_profile() -> None:
    """R-1.1 to R-8.5 [D]: the property machine creates each example's game with a profile
    drawn from every setting's allowed values (court/model/profile.py): each setting that may take
    more than one value takes one other than the default profile's in some example, and every
    profile drawn is one config/rulesdata.py accepts."""
    drawn = CourtMachine.create.hypothesis_stateful_initialize_rule.arguments["profile"]
    default = load_ruleset()
    # Any example that differs will do: shrinking it to the smallest costs minutes for nothing.
    search = settings(database=None, max_examples=2000, phases=(Phase.generate,))
    for setting in SETTINGS:
        where = (setting.section, setting.key)
        if where in NOT_DRAWN or len(setting.allowed.choices()) < 2:
            continue
        written = default["profile"].get(setting.section, {}).get(setting.key)
        other = find(drawn, lambda p, w=where, v=written: p[w[0]].get(w[1]) != v, settings=search)
        assert profile_problem(other, default["roster"]) is None, where


def test_the_machine_offers_captives_as_ransom_among_its_moves_and_its_unlisted_draws() -> None:
    """R-8.2: the machine plays the moves `legal_commands` lists, and these offer each captive
    the player holds, alone or with gold; its unlisted draws offer captives too."""
    state = captives()  # Lannister holds Robb; Stark holds Tyrion and Loras
    listed = legal_commands(state, seat(0))

    for held in ("tyrion-lannister", "loras-tyrell"):
        assert OfferRansom(captive="robb-stark", gold=0, captives=(held,)) in listed
        assert OfferRansom(captive="robb-stark", gold=1, captives=(held,)) in listed
    search = settings(database=None, max_examples=2000)
    both = find(
        commands(state),
        lambda c: isinstance(c, OfferRansom) and c.gold > 0 and bool(c.captives),
        settings=search,
    )
    assert set(both.captives) <= set(state.nobles)  # Nobles of the court at hand
