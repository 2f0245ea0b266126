"""Sentences of the keys players' devices sign with, and of the moves they signed."""

from __future__ import annotations

from court.sentences import names
from court.sentences.base import Data, Sentences
from court.state import CourtState


def holder_name(state: CourtState, holder: str) -> str:
    """Whose keys: "Eddard (House Stark)", "The host", "The game master"."""
    if holder.startswith("seat:") and holder[5:].isdigit():
        return names.player(state, int(holder[5:]))
    return "The game master" if holder == "master" else "The host"


def short(key_id: str) -> str:
    return f"{key_id[:8]}…"


def _device_key_added(d: Data, state: CourtState) -> str:
    who, key = holder_name(state, d["holder"]), short(d["key_id"])
    if d["proof"] == "token":
        return f"{who} registered a device key ({key}) with the seat's own link."
    return f"{who} registered a device key ({key}), signed by the key {short(d['proof'])}."


def _device_key_dropped(d: Data, state: CourtState) -> str:
    who = holder_name(state, d["holder"])
    return f"{who} dropped the device key {short(d['key_id'])}: it signs nothing from now on."


def _move_signed(d: Data, state: CourtState) -> str:
    who = holder_name(state, d["holder"])
    count = d["records"]
    told = "the record that follows" if count == 1 else f"the {count} records that follow"
    return f"{who}'s device (key {short(d['key_id'])}) signed the move {d['message']}: {told}."


SENTENCES: Sentences = {
    "DeviceKeyAdded": _device_key_added,
    "DeviceKeyDropped": _device_key_dropped,
    "MoveSigned": _move_signed,
}
