"""A game's stored log held to checkpoints the server signed and a player kept (`flask court
verify GAME --witness FILE`). The hash chain proves only that the log agrees with itself: whoever
can write the database can change a record and recompute every hash after it. A checkpoint the
server signed when it showed the game is what the log must still end on at that version.

The file, as a page saves it: `{"game_id": "…", "checkpoints": [{"version": 7, "hash": "…",
"key_id": "…", "signature": "…"}, …]}`; a checkpoint may also carry its `game_id` (as the server
sends it), which must be the file's. A page that found a mismatch adds `held`: `{"84": "…",
"85": "…"}`, the hashes it had recomputed itself for the versions around the first one it found
changed. They are the page's word, not the server's: they only say where, below a checkpoint
the log breaks, the stored log first differs from what the page saw.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from court.log.chain import Record
from server.keys.files import KeyFileError
from server.keys.signing import SigningKeys, key_id_of, parse_public, signed_by

FIELDS = ("version", "hash", "key_id", "signature")
# The most checkpoints one file may hold: one for every version of a long game.
MOST = 1_000_000


class WitnessError(Exception):
    """A witness file that cannot be used: `code` and a sentence saying why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Judgement:
    """The log against the checkpoints: `broken` names the first version that disagrees."""

    checked: int
    first: int
    last: int
    broken: str = ""


def read_witness(text: str, game_id: str) -> list[dict[str, Any]]:
    """The checkpoints of the file, in version order, each with the game's id."""
    try:
        found = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise WitnessError("bad_witness", f"The witness file is not JSON: {exc}.") from None
    if not isinstance(found, dict) or not isinstance(found.get("checkpoints"), list):
        raise WitnessError(
            "bad_witness", 'The witness file must be {"game_id": …, "checkpoints": [...]}.'
        )
    if found.get("game_id", game_id) != game_id:
        raise WitnessError(
            "bad_witness", f"The witness file is of game {found['game_id']!r}, not {game_id!r}."
        )
    listed = found["checkpoints"]
    if not 1 <= len(listed) <= MOST:
        raise WitnessError("bad_witness", f"The witness file must hold 1 to {MOST} checkpoints.")
    checkpoints = [_checkpoint(item, game_id, n) for n, item in enumerate(listed, start=1)]
    return sorted(checkpoints, key=lambda c: int(c["version"]))


def read_held(text: str) -> dict[int, str]:
    """The hashes the page held by version (`held`), none when the file has none."""
    held = json.loads(text).get("held") if text else None
    if held is None:
        return {}
    if not isinstance(held, dict) or len(held) > MOST:
        raise WitnessError("bad_witness", 'The witness file\'s "held" must be {version: hash}.')
    try:
        found = {int(version): hash_ for version, hash_ in held.items()}
    except ValueError:
        raise WitnessError("bad_witness", 'The witness file\'s "held" names no version.') from None
    if any(v < 1 or not isinstance(h, str) or len(h) != 64 for v, h in found.items()):
        raise WitnessError("bad_witness", 'The witness file\'s "held" must be {version: hash}.')
    return found


def _checkpoint(item: Any, game_id: str, number: int) -> dict[str, Any]:
    where = f"Checkpoint {number} of the witness file"
    if not isinstance(item, dict) or any(not isinstance(item.get(f), str) for f in FIELDS[1:]):
        raise WitnessError("bad_witness", f"{where} must hold {', '.join(FIELDS)}.")
    version = item.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise WitnessError("bad_witness", f"{where} must hold a version of 1 or more.")
    if item.get("game_id", game_id) != game_id:
        raise WitnessError("bad_witness", f"{where} is of game {item['game_id']!r}.")
    return {**{f: item[f] for f in FIELDS}, "game_id": game_id}


def keys_of(given: Iterable[str], signing: SigningKeys) -> dict[str, bytes]:
    """The public keys (by key id) the checkpoints must be signed with: those given (base64),
    else the server's, the current one and those of before a rotation."""
    try:
        listed = [parse_public(text, "--key") for text in given]
    except KeyFileError as exc:
        raise WitnessError("bad_key", str(exc)) from None
    if listed:
        return {key_id_of(raw): raw for raw in listed}
    return {signing.key_id: signing.public, **signing.retired}


def check_signatures(checkpoints: Iterable[dict[str, Any]], keys: Mapping[str, bytes]) -> None:
    """Every checkpoint is signed by the key it names, one of `keys` (by key id)."""
    for checkpoint in checkpoints:
        version, key_id = checkpoint["version"], checkpoint["key_id"]
        public = keys.get(key_id)
        if public is None:
            raise WitnessError(
                "unknown_key",
                f"The checkpoint of version {version} names the signing key {key_id!r}, which is "
                f"none of {sorted(keys)}: give the key it was signed with (--key).",
            )
        if not signed_by(public, checkpoint):
            raise WitnessError(
                "bad_checkpoint",
                f"The checkpoint of version {version} is not signed by key {key_id}: the file "
                "was changed after the server signed it, and holds the server to nothing.",
            )


def _wanted(checkpoints: list[dict[str, Any]]) -> dict[int, str] | Judgement:
    """The hash signed for each version, or the judgement of a server that signed two."""
    wanted: dict[int, str] = {}
    for checkpoint in checkpoints:
        version, signed = int(checkpoint["version"]), str(checkpoint["hash"])
        if wanted.setdefault(version, signed) != signed:
            return Judgement(
                len(checkpoints),
                version,
                version,
                f"broken: version {version} was signed by the server with two hashes "
                f"({wanted[version][:12]}… and {signed[:12]}…): it showed two different logs",
            )
    return wanted


def judge(
    records: Iterable[Record],
    checkpoints: list[dict[str, Any]],
    held: Mapping[int, str] | None = None,
) -> Judgement:
    """The stored records, read in version order, against the checkpoints (in version order);
    where a checkpoint breaks, the first version whose stored hash is not the one the page
    `held` is named, as the page named it."""
    held = held or {}
    wanted = _wanted(checkpoints)
    if isinstance(wanted, Judgement):
        return wanted
    first, last = min(wanted), max(wanted)
    agreed, stored = 0, 0
    differs: Record | None = None
    for record in records:
        stored = record.version
        if differs is None and held.get(record.version, record.hash) != record.hash:
            differs = record
        kept = wanted.get(record.version)
        if kept is None:
            continue
        if record.hash != kept:
            earlier = f"version {agreed} still agrees" if agreed else "no earlier checkpoint"
            signed = (
                f"version {record.version} does not end on the hash the server signed "
                f"({kept[:12]}…) but on {record.hash[:12]}…"
            )
            if differs is not None:
                return Judgement(len(wanted), first, last, _first_held(differs, held, signed))
            return Judgement(
                len(wanted),
                first,
                last,
                f"broken: {signed}: the log was changed at or before it after the server "
                f"showed it; {earlier}",
            )
        agreed = record.version
        if record.version == last:
            return Judgement(len(wanted), first, last)
    return Judgement(
        len(wanted),
        first,
        last,
        f"broken: version {last} was signed by the server, but the log now ends at version "
        f"{stored}: records were taken out",
    )


def _first_held(record: Record, held: Mapping[int, str], signed: str) -> str:
    """The first version whose stored hash differs from the page's, beside the broken
    checkpoint that makes it count."""
    before = held.get(record.version - 1)
    agrees = f"; version {record.version - 1} still agrees with it" if before else ""
    return (
        f"broken: version {record.version} is the first that differs from what the page held "
        f"({held[record.version][:12]}…, now {record.hash[:12]}…){agrees}; {signed}: the log "
        "was changed after the server showed it"
    )
