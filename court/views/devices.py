"""The keys each seat's and role's devices sign with, as everyone may see them: public halves
only (court/model/devices.py). A page reads whether its seat holds a key, and whether one of them
is its own; it believes the keys only as its witness folds them from the log
(static/lib/witness.js)."""

from __future__ import annotations

from typing import Any

from court.state import CourtState


def devices_view(state: CourtState) -> list[dict[str, Any]]:
    """Every key standing: `{holder, key_id, public_key, proof}`, by holder and key id."""
    keys = sorted(state.devices.by_id.values(), key=lambda k: (k.holder, k.key_id))
    return [
        {"holder": k.holder, "key_id": k.key_id, "public_key": k.public_key, "proof": k.proof}
        for k in keys
    ]
