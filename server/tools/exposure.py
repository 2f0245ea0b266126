"""What the server says when it starts listening beyond this machine (LAN mode, HOST=0.0.0.0):
who can reach it, that nothing is encrypted, and which address invite links will name."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket

from config.settings import Settings

log = logging.getLogger("small_council.serve")
GUIDE = 'docs/deployment.md, "One machine on the internet"'
# Any address outside this machine: a UDP socket "connected" to it sends nothing, but the
# kernel picks the address this machine would use on the way there (TEST-NET-1, never routed).
_PROBE = ("192.0.2.1", 9)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any address


def network_address() -> str | None:
    """This machine's address on its network (as others reach it), or None when unknown."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_PROBE)
        found = str(probe.getsockname()[0])
        return None if found.startswith(("0.", "127.")) else found
    return None


def exposure_warnings(settings: Settings, address: str | None) -> list[str]:
    """What an operator must hear when HOST lets other machines in; none on loopback.
    `address` is this machine's address on the network, if known."""
    host, port = settings.HOST, settings.PORT
    if is_loopback(host):
        return []
    # Every address of this machine: the one friends use is its address on the network.
    listened = address if host in ("0.0.0.0", "::", "[::]") else host
    reach = _url(listened, port) if listened else None
    suggested = reach or f"http://<this machine's address>:{port}"
    warnings = [
        f"HOST={host}: Small Council is reachable by everyone on this network"
        f"{f' at {reach}' if reach else ''}, over plain http without TLS: seat tokens, ballots "
        "and whispers cross the network unencrypted. Serve it so on a home network you trust "
        f"only; for friends on the internet keep HOST=127.0.0.1 behind Caddy ({GUIDE})."
    ]
    if settings.PUBLIC_URL:
        warnings.append(
            f"Invite links start with PUBLIC_URL={settings.PUBLIC_URL}: friends must be able "
            "to open that address."
        )
    else:
        warnings.append(
            "PUBLIC_URL is not set, so an invite link names the address its page was opened "
            f"at (http://127.0.0.1:{port} on this machine, which no friend can open): set "
            f"PUBLIC_URL={suggested} so that every link names this machine."
        )
    if settings.TRUSTED_PROXIES:
        warnings.append(
            f"TRUSTED_PROXIES={settings.TRUSTED_PROXIES} while the server listens beyond "
            "127.0.0.1: a client that reaches it directly chooses, in X-Forwarded-For, the "
            "address its limits count; keep TRUSTED_PROXIES=0 in LAN mode."
        )
    return warnings


def _url(host: str, port: int) -> str:
    bare = host.strip("[]")
    return f"http://[{bare}]:{port}" if ":" in bare else f"http://{bare}:{port}"


def warn_if_exposed(settings: Settings, address: str | None = None) -> None:
    """Logs exposure_warnings, with this machine's network address found when not given."""
    if is_loopback(settings.HOST):
        return
    for line in exposure_warnings(settings, address or network_address()):
        log.warning(line)
