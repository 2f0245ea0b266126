"""Every step of a round the court runs, declared once: its one id, its kind, its number in
the order of R-4.2 where the rules give one, its readable name and the rule that governs it.

The decree steps and the steps of phase 4 are the same in every game; the elections follow the
game's map and variants, as `electorate.sequence` lists them.
"""

from __future__ import annotations

from dataclasses import dataclass

from court.options import electorate
from court.state import CourtState, StepKind, StepRef


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    kind: StepKind
    id: str
    # "1.1.1" ... as numbers the steps of phase 1; None where the rules give no number.
    number: str | None
    name: str
    rule: str

    @property
    def ref(self) -> StepRef:
        return StepRef(kind=self.kind, id=self.id)

    @property
    def label(self) -> str:
        """ "1.1.1 Marriages": the number, when there is one, and the name."""
        return f"{self.number} {self.name}" if self.number else self.name


def _decree(id: str, number: str, name: str, rule: str) -> Step:
    return Step(kind=StepKind.DECREE, id=id, number=number, name=name, rule=rule)


MARRIAGES = _decree("marriages", "1.1.1", "Marriages", "R-5.1")
FALSE_IDOLS = _decree("false_idols", "1.1.2", "False idols", "R-6.2")
ROYAL_PARDON = _decree("royal_pardon", "1.1.3", "Royal pardon", "R-6.3")
SEND_TO_WALL = _decree("send_to_wall", "1.1.4", "Send to the Wall", "R-6.4")
TITLE_CONCESSION = _decree("title_concession", "1.1.5", "Title concession", "R-6.6")
OATHBREAKERS = _decree("oathbreakers", "1.2.1", "Oathbreakers", "R-8.4")
# In the order of.
DECREES = (MARRIAGES, FALSE_IDOLS, ROYAL_PARDON, SEND_TO_WALL, TITLE_CONCESSION, OATHBREAKERS)

# Each kind of election: its step in R-4.2 (every Warden election is step 1.3) and its rule.
ELECTIONS = {
    electorate.Kind.LORD_COMMANDER: ("1.2.2", "R-7.3"),
    electorate.Kind.WARDEN: ("1.3", "R-7.4"),
    electorate.Kind.HAND: ("1.4", "R-7.7"),
    electorate.Kind.KING: ("1.5", "R-7.8"),
}

# Phase 4: first the sale of the fourth council seat, then each player's purchases.
AUCTION = Step(
    kind=StepKind.AUCTION,
    id="auction",
    number=None,
    name="Sale of the fourth council seat",
    rule="R-4.6",
)
PURCHASES = Step(
    kind=StepKind.PURCHASES, id="purchases", number=None, name="Purchases", rule="R-4.1"
)

_FIXED = {step.ref: step for step in (*DECREES, AUCTION, PURCHASES)}


def election(spec: electorate.ElectionSpec) -> Step:
    number, rule = ELECTIONS[spec.kind]
    return Step(
        kind=StepKind.ELECTION, id=spec.id, number=number, name=f"{spec.name} election", rule=rule
    )


def table(state: CourtState) -> tuple[Step, ...]:
    """Every step a round of this game may open or skip, in the order it comes (R-4.1, R-4.2)."""
    elections = tuple(election(spec) for spec in electorate.sequence(state))
    return (*DECREES, *elections, AUCTION, PURCHASES)


def current(state: CourtState) -> Step | None:
    """The step of the phase under way that was opened or skipped last."""
    ref = state.step
    if ref is None:
        return None
    if ref.kind is StepKind.ELECTION:
        return election(electorate.spec(state, ref.id))
    return _FIXED[ref]
