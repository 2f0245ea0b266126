"""The court played by Hypothesis (tests/property/machine.py): bounded to about a minute and
a half here; `bench/soak.py` plays it far longer."""

from __future__ import annotations

import os

from tests.property.machine import CourtMachine, machine_settings

EXAMPLES = int(os.environ.get("COURT_MACHINE_EXAMPLES", "40"))
STEPS = int(os.environ.get("COURT_MACHINE_STEPS", "250"))

TestCourtMachine = CourtMachine.TestCase
TestCourtMachine.settings = machine_settings(EXAMPLES, STEPS)
