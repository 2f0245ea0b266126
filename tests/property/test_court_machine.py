"""The court played by Hypothesis (tests/property/machine.py): bounded to about a minute and
a half here, in two halves of the examples, this file's and test_court_machine_second_half.py's,
so that a run spread over several processes plays them side by side (each half is a class of its
own, with a seed of its own when the run is derandomized); `bench/soak.py` plays it far longer."""

from __future__ import annotations

from tests.property.machine import EXAMPLES, STEPS, CourtMachine, machine_settings


class FirstHalf(CourtMachine):
    """The first half of the examples."""


TestCourtMachineFirstHalf = FirstHalf.TestCase
TestCourtMachineFirstHalf.settings = machine_settings((EXAMPLES + 1) // 2, STEPS)
