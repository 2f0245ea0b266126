"""The court played by Hypothesis (tests/property/machine.py): bounded to about a minute and
a half here, in two halves of the examples that a run spreads over two processes (each half
is its own test, with a seed of its own); `bench/soak.py` plays it far longer."""

from __future__ import annotations

import os

from tests.property.machine import CourtMachine, machine_settings

EXAMPLES = int(os.environ.get("COURT_MACHINE_EXAMPLES", "40"))
STEPS = int(os.environ.get("COURT_MACHINE_STEPS", "250"))


class FirstHalf(CourtMachine):
    """The first half of the examples."""


class SecondHalf(CourtMachine):
    """The second half: another class, so another seed when the run is derandomized."""


TestCourtMachineFirstHalf = FirstHalf.TestCase
TestCourtMachineFirstHalf.settings = machine_settings((EXAMPLES + 1) // 2, STEPS)
TestCourtMachineSecondHalf = SecondHalf.TestCase
TestCourtMachineSecondHalf.settings = machine_settings(EXAMPLES // 2, STEPS)
