"""Everything with I/O around the pure engine: the service (with its one replay path) and the
adapters that call it: the message catalogue, HTTP, live Socket.IO, the stores, the notices sent
to a game's webhook, and the operator tools."""
