"""Every command a client can send, declared once: its name, payload, sender, summary and the
command it builds (catalogue.py). HTTP, Socket.IO, OpenAPI and docs/protocol.md use it."""
