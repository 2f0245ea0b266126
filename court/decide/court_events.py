"""The host's recorded facts of a Noble's life and the Court Events of section 9: capture,
release, escape, death, a new Noble, Join the Small Council, Mother of Dragons, an Heir born,
and the Wall's supplies (R-1.2 to R-1.4, R-3.5, R-3.8, R-3.9, R-5.4, R-6.2, R-6.5, R-8.1, R-8.5).

Each is host-only, only while the game is playing, names its cause, and is refused with a
sentence naming the rule when it contradicts the court.
"""

from __future__ import annotations

from court.commands import (
    Actor,
    AddNoble,
    DeathKind,
    GrantMotherOfDragons,
    HeirBorn,
    JoinSmallCouncil,
    RecordCapture,
    RecordDeath,
    RecordEscape,
    RecordRelease,
    RecordWallSupplies,
)
from court.decide import consequences, elections, titles
from court.decide.guards import require_recorder, require_status
from court.errors import CourtError
from court.events import (
    AttributeGained,
    Event,
    GoldAdjusted,
    NobleAdded,
    NobleFreed,
    TitleSlotsExceeded,
)
from court.ids import MOTHER_OF_DRAGONS, HouseId, NobleId, TitleId
from court.model.ruleset import Attribute, Category, Gender, NobleCard
from court.model.text import NOBLE_ID, NOBLE_ID_LIMIT, clean_cause, clean_name
from court.sentences import names
from court.state import CourtState, GameStatus, Noble, NobleStatus

WALL_SUPPLIES = range(1, 101)
# R-1.3: the attributes a Noble may bring into play; the Heir and the Gods' curse are
# only gained in play.
NEWCOMER_ATTRIBUTES = frozenset(
    {
        Attribute.BASTARD,
        Attribute.HARD_TO_MARRY,
        Attribute.HEART_BREAKER,
        Attribute.CRUEL,
        Attribute.IMMUNE_TO_JUSTICE,
    }
)
# How a Noble out of play stands, for the sentences that refuse him an act (section 9).
_STANDING = {
    NobleStatus.CAPTIVE: "held captive",
    NobleStatus.DEAD: "dead",
    NobleStatus.BROTHER: "a Brother of the Night's Watch",
    NobleStatus.IN_PLAY: "in play",
}
JOIN_CAUSE = "Join the Small Council (court event, R-3.5)"
MOTHER_CAUSE = "Mother of Dragons (court event)"
HEIR_CAUSE = "Heir born (court event, R-3.9)"
WALL_CAUSE = "Wall supplies disposed by the Lord Commander (R-8.5)"


# -- shared checks ------------------------------------------------------------------------------


def _fact(state: CourtState, actor: Actor, doing: str, raw_cause: str) -> str:
    """Section 9: only the host records facts, only in a game being played; the cleaned cause."""
    require_recorder(actor, doing)
    require_status(state, GameStatus.PLAYING)
    return clean_cause(raw_cause)


def _noble(state: CourtState, noble: NobleId) -> Noble:
    found = state.nobles.get(noble)
    if found is None:
        raise CourtError("unknown_noble", f"There is no Noble {noble!r} in this game.")
    return found


def _living(state: CourtState, noble: NobleId) -> Noble:
    found = _noble(state, noble)
    if not found.alive:
        raise CourtError("noble_dead", f"{found.name} is dead and takes no further part (R-1.4).")
    return found


def _in_play(state: CourtState, noble: NobleId, doing: str) -> Noble:
    """R-1.4: alive, free and not a Brother of the Night's Watch."""
    found = _living(state, noble)
    if found.status is NobleStatus.CAPTIVE:
        raise CourtError(
            "noble_captive", f"{found.name} is held captive and cannot {doing} (R-1.4)."
        )
    if found.status is NobleStatus.BROTHER:
        raise CourtError(
            "noble_brother",
            f"{found.name} is a Brother of the Night's Watch and cannot {doing} (R-1.4).",
        )
    return found


def _playing_house(state: CourtState, house: HouseId) -> HouseId:
    if house not in state.treasury:
        raise CourtError("unknown_house", f"No House {house!r} plays in this game.")
    return house


def _free_title(state: CourtState, title: TitleId) -> None:
    holder = state.holder(title)
    if holder is not None:
        name = _title_name(state, title)
        raise CourtError("title_taken", f"{holder.name} already holds the {name} title.")


def _title_name(state: CourtState, title: TitleId) -> str:
    found = state.ruleset.title(title)
    return found.name if found else title


def _no_second_choice(state: CourtState, events: tuple[Event, ...]) -> tuple[Event, ...]:
    """A fact is never held back by a choice a player still has to make (section 9), but the
    court waits for one choice at a time: a grant that would ask a second is refused. A Warden
    joining the council has a free High slot, so only a table of other slots meets this."""
    if state.pending is not None and any(isinstance(e, TitleSlotsExceeded) for e in events):
        raise CourtError(
            "title_choice_pending",
            "The game waits for a title choice first (R-3.2, R-3.3); record this afterwards.",
        )
    return events


# -- captives (R-8.1) ---------------------------------------------------------------------------


def record_capture(state: CourtState, cmd: RecordCapture, actor: Actor) -> tuple[Event, ...]:
    """R-8.1: a Noble in play is taken by another House; R-5.4: a heart breaker or cruel
    captor ends the captive's marriage alliance."""
    cause = _fact(state, actor, "record a capture", cmd.cause)
    noble = _noble(state, cmd.noble)
    captor = _playing_house(state, cmd.house)
    if not noble.alive:
        raise CourtError("noble_dead", f"{noble.name} is dead: a dead Noble cannot be captured.")
    if noble.status is NobleStatus.CAPTIVE:
        raise CourtError(
            "already_captive",
            f"{noble.name} is already held captive by "
            f"{names.house(state, noble.captor or '')} (R-1.4, R-8.1).",
        )
    if noble.status is NobleStatus.BROTHER:
        raise CourtError(
            "noble_brother",
            f"{noble.name} is a Brother of the Night's Watch, not in play, and cannot be "
            "captured (R-1.4).",
        )
    if noble.house == captor:
        raise CourtError(
            "own_house",
            f"A captive is held by another House (R-1.4): {noble.name} is "
            f"{names.house(state, captor)}'s.",
        )
    if cmd.by is not None:
        by = _noble(state, cmd.by)
        if by.house != captor:
            raise CourtError(
                "bad_captor",
                f"The capturing Noble must be a Noble of {names.house(state, captor)} (R-8.1).",
            )
        if by.status is not NobleStatus.IN_PLAY:
            raise CourtError(
                "captor_not_in_play",
                f"{by.name} is {_STANDING[by.status]}: the capturing Noble must be in play, "
                "not captive, dead or a Brother (section 9).",
            )
    return tuple(consequences.capture(state, noble.id, captor, cmd.by, cause))


def record_release(state: CourtState, cmd: RecordRelease, actor: Actor) -> tuple[Event, ...]:
    """R-8.1: the captor lets a captive go."""
    cause = _fact(state, actor, "record a release", cmd.cause)
    noble = _captive(state, cmd.noble, "released")
    return (NobleFreed(noble=noble.id, cause=f"released: {cause}"),)


def record_escape(state: CourtState, cmd: RecordEscape, actor: Actor) -> tuple[Event, ...]:
    """R-8.1: a captive escapes."""
    cause = _fact(state, actor, "record an escape", cmd.cause)
    noble = _captive(state, cmd.noble, "escape")
    return (NobleFreed(noble=noble.id, cause=f"escaped: {cause}"),)


def _captive(state: CourtState, noble_id: NobleId, doing: str) -> Noble:
    noble = _noble(state, noble_id)
    if noble.status is not NobleStatus.CAPTIVE:
        raise CourtError(
            "not_captive", f"{noble.name} is not held captive; only a captive can {doing} (R-8.1)."
        )
    return noble


# -- death (R-1.4, R-3.8, R-5.4, R-6.2, R-6.5) -----------------------------------------------


def record_death(state: CourtState, cmd: RecordDeath, actor: Actor) -> tuple[Event, ...]:
    """R-1.4: a dead Noble keeps no title and no marriage; R-3.8: the widowed Queen protects;
    R-6.5: Justice only on an Outlaw who is not immune; R-6.2: Uprising only on the cursed."""
    cause = _fact(state, actor, "record a death", cmd.cause)
    try:
        kind = DeathKind(cmd.kind)
    except ValueError:
        kinds = ", ".join(k.value for k in DeathKind)
        raise CourtError("bad_death_kind", f"A death is one of: {kinds} (section 9).") from None
    noble = _living(state, cmd.noble)
    if kind is DeathKind.JUSTICE:
        if not noble.outlaw:
            raise CourtError(
                "not_outlaw",
                f"Only an Outlaw can be killed by Justice (R-6.5): {noble.name} is not.",
            )
        if Attribute.IMMUNE_TO_JUSTICE in noble.attributes:
            raise CourtError(
                "immune_to_justice", f"{noble.name} is immune to Justice (R-1.3, R-6.5)."
            )
    if kind is DeathKind.UPRISING and Attribute.GODS_CURSED not in noble.attributes:
        raise CourtError(
            "not_gods_cursed",
            f"An Uprising is played only on a Gods-cursed Noble (R-6.2): {noble.name} is not.",
        )
    return tuple(consequences.death(state, noble.id, f"{kind.value}: {cause}"))


# -- Court Events (R-1.2, R-3.5, R-3.9) -----------------------------------------------------------


def add_noble(state: CourtState, cmd: AddNoble, actor: Actor) -> tuple[Event, ...]:
    """R-1.2: a Court Event brings a new Noble into play for a House."""
    cause = _fact(state, actor, "bring a new Noble into play", cmd.cause)
    house = _playing_house(state, cmd.house)
    if len(cmd.noble) > NOBLE_ID_LIMIT or not NOBLE_ID.fullmatch(cmd.noble):
        raise CourtError(
            "bad_noble_id",
            "A Noble's id is kebab-case: lower-case letters and digits joined by '-' "
            "(for example 'rickon-stark').",
        )
    if cmd.noble in state.nobles or any(
        n.id == cmd.noble for h in state.ruleset.houses for n in h.nobles
    ):
        raise CourtError("noble_exists", f"There is already a Noble {cmd.noble!r} (R-1.2).")
    name = clean_name(cmd.name, "A Noble's name")
    if cmd.gender not in tuple(Gender):
        raise CourtError("bad_gender", "A Noble is a Lord or a Lady (R-1.2).")
    unknown = set(cmd.attributes) - NEWCOMER_ATTRIBUTES
    if unknown:
        allowed = ", ".join(sorted(NEWCOMER_ATTRIBUTES))
        raise CourtError(
            "bad_attribute",
            f"A new Noble may have only these attributes (R-1.3): {allowed}; "
            f"not {', '.join(sorted(unknown))}.",
        )
    card = NobleCard(
        id=cmd.noble,
        name=name,
        gender=Gender(cmd.gender),
        attributes=frozenset(Attribute(a) for a in cmd.attributes),
    )
    return (NobleAdded(house=house, noble=card, cause=cause),)


def join_small_council(
    state: CourtState, cmd: JoinSmallCouncil, actor: Actor, now: float
) -> tuple[Event, ...]:
    """R-3.5: only a Warden off the council joins (the Hand and the Masters are on it), with
    a free Master title his player picks; section 9: a choice another player still has to
    make does not hold the fact back."""
    cause = _fact(state, actor, "record a Court Event", cmd.cause)
    noble = _in_play(state, cmd.noble, "join the Small Council")
    if noble.outlaw:
        raise CourtError(
            "noble_outlaw", f"{noble.name} is an Outlaw and cannot join the Small Council (R-6.5)."
        )
    if not titles.held_in(state, noble.id, Category.MILITARY):
        raise CourtError(
            "not_a_warden",
            f"Only a Warden may join the Small Council (R-3.5): {noble.name} is not.",
        )
    council = {t.id for t in state.ruleset.titles if t.council}
    seat = next((t for t in state.titles_of(noble.id) if t in council), None)
    if seat is not None:
        raise CourtError(
            "already_on_council",
            f"{noble.name} already sits on the Small Council as "
            f"{_title_name(state, seat)}, and cannot join it again (R-3.5).",
        )
    if not _is_master(state, cmd.title):
        masters = ", ".join(t.id for t in state.ruleset.titles if t.master)
        raise CourtError(
            "not_a_master_title",
            f"A Warden joining the council picks a Master title (R-3.5): {masters}.",
        )
    _free_title(state, cmd.title)
    deadline = elections.deadline(state, "title_choice", now)
    granted = titles.grant(state, cmd.title, noble.id, f"{JOIN_CAUSE}: {cause}", deadline)
    return _no_second_choice(state, granted)


def _is_master(state: CourtState, title: TitleId) -> bool:
    definition = state.ruleset.title(title)
    return definition is not None and definition.master


def grant_mother_of_dragons(
    state: CourtState, cmd: GrantMotherOfDragons, actor: Actor
) -> tuple[Event, ...]:
    """R-3.1: the single Mother of Dragons title goes to a Lady in play."""
    cause = _fact(state, actor, "record a Court Event", cmd.cause)
    noble = _in_play(state, cmd.noble, "become Mother of Dragons")
    if noble.gender is not Gender.LADY:
        raise CourtError(
            "not_a_lady", f"Only a Lady can be Mother of Dragons: {noble.name} is not."
        )
    if state.ruleset.title(MOTHER_OF_DRAGONS) is None:
        raise CourtError("unknown_title", "This game has no Mother of Dragons title (R-3.1).")
    _free_title(state, MOTHER_OF_DRAGONS)
    if not titles.could_stand(state, MOTHER_OF_DRAGONS, noble.id):
        raise CourtError(
            "cannot_hold", f"{noble.name} could not stand for Mother of Dragons (R-3.10)."
        )
    return titles.grant(state, MOTHER_OF_DRAGONS, noble.id, f"{MOTHER_CAUSE}: {cause}", None)


def heir_born(state: CourtState, cmd: HeirBorn, actor: Actor) -> tuple[Event, ...]:
    """R-3.9: a Lord in play becomes the Heir; there is one Heir at a time."""
    cause = _fact(state, actor, "record a Court Event", cmd.cause)
    noble = _in_play(state, cmd.noble, "become the Heir")
    if noble.gender is not Gender.LORD:
        raise CourtError("not_a_lord", f"The Heir is a Lord (R-3.9): {noble.name} is not.")
    heir = next(
        (
            n
            for n in state.nobles.values()
            if n.alive and Attribute.PRINCE_OF_WESTEROS in n.attributes
        ),
        None,
    )
    if heir is not None:
        raise CourtError(
            "heir_exists", f"There is one Heir at a time, and {heir.name} is the Heir (R-3.9)."
        )
    return (
        AttributeGained(
            noble=noble.id,
            attribute=Attribute.PRINCE_OF_WESTEROS.value,
            cause=f"{HEIR_CAUSE}: {cause}",
        ),
    )


# -- the Wall's supplies (R-8.5) ------------------------------------------------------------------


def record_wall_supplies(
    state: CourtState, cmd: RecordWallSupplies, actor: Actor
) -> tuple[Event, ...]:
    """R-8.5: the Lord Commander disposes of the Wall's surplus gold, to a House."""
    cause = _fact(state, actor, "record the Wall's supplies", cmd.cause)
    if not state.ruleset.profile.variants.nights_watch:
        raise CourtError(
            "no_nights_watch", "The Wall's supplies exist only with the Night's Watch (R-8.5)."
        )
    commander = next((state.holder(t.id) for t in state.ruleset.titles if t.nights_watch), None)
    if commander is None or not commander.alive:
        raise CourtError(
            "no_lord_commander",
            "Only a Lord Commander disposes of the Wall's supplies, and nobody holds that "
            "office (R-8.5).",
        )
    house = _playing_house(state, cmd.house)
    if cmd.amount not in WALL_SUPPLIES:
        raise CourtError(
            "bad_amount",
            f"The Wall's supplies are {WALL_SUPPLIES.start} to {WALL_SUPPLIES.stop - 1} "
            "Gold Dragons (R-8.5).",
        )
    return (GoldAdjusted(house=house, amount=cmd.amount, cause=f"{WALL_CAUSE}: {cause}"),)
