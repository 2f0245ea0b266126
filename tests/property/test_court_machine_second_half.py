"""The second half of the property machine's examples (tests/property/test_court_machine.py)."""

from __future__ import annotations

from tests.property.machine import EXAMPLES, STEPS, CourtMachine, machine_settings


class SecondHalf(CourtMachine):
    """The second half: another class, so another seed when the run is derandomized."""


TestCourtMachineSecondHalf = SecondHalf.TestCase
TestCourtMachineSecondHalf.settings = machine_settings(EXAMPLES // 2, STEPS)
