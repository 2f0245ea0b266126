"""The client's address, as HTTP routes and Socket.IO handlers alike see it: the peer's, or
the one the trusted proxies in front say (TRUSTED_PROXIES); and the key the per-address limits
count it under (an IPv6 client's network)."""

from __future__ import annotations

import ipaddress

from flask import Flask, request
from werkzeug.middleware.proxy_fix import ProxyFix


def trust_proxies(app: Flask, proxies: int) -> None:
    """Believe the last `proxies` entries of X-Forwarded-For (none: a direct client's header
    is ignored). Called last, so that it wraps Socket.IO's middleware too and a connection
    sees the same address as a request."""
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]


def client_address() -> str:
    """The address of the client of this request or Socket.IO connection."""
    return request.remote_addr or ""


def limit_key(address: str, ipv6_prefix: int) -> str:
    """Who an address counts as for the limits: an IPv4 address itself (also when written as
    IPv6, ::ffff:a.b.c.d); an IPv6 address's network of `ipv6_prefix` bits, since whoever has
    one address of a /64 has them all. Anything else (no address) stays as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(ip), ipv6_prefix), strict=False))
