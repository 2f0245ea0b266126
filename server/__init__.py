"""Everything with I/O around the pure engine: the service and its adapters (HTTP, live
Socket.IO, the store, the tools)."""
