"""The second half of the property machine's examples (tests/property/test_court_machine.py)."""

from __future__ import annotations

from tests.property.machine import CourtMachine, machine_settings
from tests.property.test_court_machine import EXAMPLES, STEPS


class SecondHalf(CourtMachine):
    """The second half: another class, so another seed when the run is derandomized."""


TestCourtMachineSecondHalf = SecondHalf.TestCase
TestCourtMachineSecondHalf.settings = machine_settings(EXAMPLES // 2, STEPS)
