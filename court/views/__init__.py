"""What each viewer may see: the court and the log rendered for a seat, the host, the game
master or a spectator.

Raw events never leave the server; these functions decide what does.
"""

from __future__ import annotations

from court.views.court import court_view, decree_view, election_view, noble_view
from court.views.records import export_lines, private_visible, record_view

__all__ = [
    "court_view",
    "decree_view",
    "election_view",
    "export_lines",
    "noble_view",
    "private_visible",
    "record_view",
]
