"""Headers every response carries, pages and API alike: a Content-Security-Policy that
allows only the court's own files (no inline script or style, no framing), nosniff, no
referrer, and, when PUBLIC_URL is https, Strict-Transport-Security."""

from __future__ import annotations

from flask import Flask, Response

# 'self' also covers the page's own ws:/wss: origin for Socket.IO (CSP Level 3). The icons
# are the court's own files (static/favicon.svg, and favicon-turn.svg on the player's turn).
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
    )
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# Browsers that once reached the court over https keep to https for a year.
HSTS = "max-age=31536000"


def install_security_headers(app: Flask, public_url: str) -> None:
    """Every response of `app` gets HEADERS, and HSTS when `public_url` is https (behind
    nginx, which terminates TLS, nginx sets it too: deploy/nginx-tls.conf)."""
    headers = (
        {**HEADERS, "Strict-Transport-Security": HSTS}
        if public_url.startswith("https://")
        else dict(HEADERS)
    )

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in headers.items():
            response.headers.setdefault(name, value)
        return response
