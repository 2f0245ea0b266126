"""What each viewer may see: the court and the log rendered for a seat, the host, the game
master or a spectator, decided by one Observer (court/views/observer.py).

Raw events never leave the server; these functions decide what does.
"""

from __future__ import annotations

from court.views.court import decree_view, election_view, noble_view
from court.views.made import court_view
from court.views.observer import Observer

__all__ = ["Observer", "court_view", "decree_view", "election_view", "noble_view"]
