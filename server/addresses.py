"""The client's address, as HTTP routes and Socket.IO handlers alike see it: the peer's, or
the one the trusted proxies in front say (TRUSTED_PROXIES); the per-address limits key on it."""

from __future__ import annotations

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
