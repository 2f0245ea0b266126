"""Folding the keys players' devices sign with (court/model/devices.py): a key added or dropped, a
move's nonce spent, and the keys that go with a seat or a role when it changes hands."""

from __future__ import annotations

from court.events.devices import DeviceKeyAdded, DeviceKeyDropped, MoveSigned
from court.evolve.base import Handlers, replace
from court.model.devices import DeviceKey, DeviceKeys
from court.state import CourtState


def without_keys(state: CourtState, holder: str) -> CourtState:
    """The court without `holder`'s keys: his seat went to another player, was given up or
    removed, or the host role left the host who held no seat. The old holder's devices sign
    nothing more for it."""
    keys = state.devices.without(holder)
    return state if keys is state.devices else replace(state, devices=keys)


def _device_key_added(state: CourtState, e: DeviceKeyAdded) -> CourtState:
    key = DeviceKey(key_id=e.key_id, holder=e.holder, public_key=e.public_key, proof=e.proof)
    keys = state.devices
    devices = DeviceKeys(by_id={**keys.by_id, e.key_id: key}, ever=keys.ever | {e.key_id})
    return replace(state, devices=devices)


def _device_key_dropped(state: CourtState, e: DeviceKeyDropped) -> CourtState:
    keys = state.devices
    kept = {i: k for i, k in keys.by_id.items() if i != e.key_id}
    return replace(state, devices=DeviceKeys(by_id=kept, ever=keys.ever))


def _move_signed(state: CourtState, e: MoveSigned) -> CourtState:
    """The nonce is spent: the same signed move is never taken twice."""
    keys = state.devices
    key = keys.by_id.get(e.key_id)
    if key is None:  # a forged log's: the audit names it, the fold goes on
        return state
    spent = DeviceKey(
        key_id=key.key_id,
        holder=key.holder,
        public_key=key.public_key,
        proof=key.proof,
        nonces=key.nonces | {e.nonce},
    )
    devices = DeviceKeys(by_id={**keys.by_id, e.key_id: spent}, ever=keys.ever)
    return replace(state, devices=devices)


HANDLERS: Handlers = {
    DeviceKeyAdded: _device_key_added,
    DeviceKeyDropped: _device_key_dropped,
    MoveSigned: _move_signed,
}
