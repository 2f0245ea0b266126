"""Which webhook URLs a host may set: https (http only where the operator allows it, for a
receiver on the same network), at most URL_MAX characters, and by default only hosts that
resolve to public addresses, so that the server cannot be made to post to itself or to the
machines beside it (SSRF). The check runs when the URL is set and again before every send,
which then connects to the addresses it checked (`Target`): resolving the name a second time
could answer an address nobody checked (DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from court.errors import CourtError

URL_MAX = 500
Resolver = Callable[[str, int], list[str]]


class WebhookRefused(CourtError):
    """A webhook URL the server will not post to: the shape of the request is right, the
    server's policy refuses it (409, as the court's rules refuse a command)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UrlPolicy:
    allow_http: bool = False
    allow_private: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """A webhook URL the server may post to, split, with every address its host resolved to
    when it was checked: the post connects to one of these and to nothing else."""

    url: str
    scheme: str
    host: str  # for the Host header, the TLS server name and the certificate's check
    port: int
    path: str  # with the query
    addresses: tuple[str, ...]


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (the system's resolver)."""
    found: list[Any] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in found]


def check_url(url: str, policy: UrlPolicy, resolver: Resolver = resolve) -> str:
    """The URL, stripped, if the server may post to it; else WebhookRefused saying why. The
    reasons never repeat the URL: it holds the webhook's secret."""
    return pin(url, policy, resolver).url


def pin(url: str, policy: UrlPolicy, resolver: Resolver = resolve) -> Target:
    """The URL checked as `check_url` checks it, with the addresses it was checked at."""
    url = url.strip()
    if len(url) > URL_MAX:
        raise WebhookRefused("webhook_too_long", f"A webhook URL has at most {URL_MAX} characters.")
    parts = urlsplit(url)
    schemes = ("https", "http") if policy.allow_http else ("https",)
    if parts.scheme not in schemes:
        raise WebhookRefused(
            "webhook_scheme", "A webhook URL starts with https:// (copy it from Discord or Slack)."
        )
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if not host or parts.username is not None or parts.password is not None:
        raise WebhookRefused(
            "webhook_host", "This webhook URL names no server the court can reach."
        )
    port = port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    addresses = _checked_addresses(host, port, policy, resolver)
    return Target(
        url=url, scheme=parts.scheme, host=host, port=port, path=path, addresses=addresses
    )


def _checked_addresses(
    host: str, port: int, policy: UrlPolicy, resolver: Resolver
) -> tuple[str, ...]:
    try:
        addresses = resolver(host, port)
    except (OSError, UnicodeError):
        addresses = []
    if not addresses:
        raise WebhookRefused(
            "webhook_host", "The server named in this webhook URL cannot be found."
        )
    if not policy.allow_private and not all(_public(a) for a in addresses):
        raise WebhookRefused(
            "webhook_private",
            "This webhook URL points into a private network or this machine; "
            "the court posts only to public servers.",
        )
    return tuple(dict.fromkeys(addresses))


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast
