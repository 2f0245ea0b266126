"""Reproducible dice: every roll is derived from the game's committed seed and the roll number.

Roll n of a game is HMAC-SHA256(key=seed, msg="d6:<n>"), read as a big-endian
integer, reduced to 1-6 by rejection of the biased top range. The seed's SHA-256
is public from the first event; the seed itself is published when the game ends.
"""

import hashlib
import hmac

_LIMIT = (2**256 // 6) * 6


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def roll_d6(seed: str, number: int) -> int:
    counter = 0
    while True:
        msg = f"d6:{number}" if counter == 0 else f"d6:{number}:{counter}"
        value = int.from_bytes(hmac.new(seed.encode(), msg.encode(), hashlib.sha256).digest())
        if value < _LIMIT:
            return value % 6 + 1
        counter += 1
