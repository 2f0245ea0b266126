"""The court engine: pure rules over frozen data, and nothing else. It reads no clock, file or
database; the service and the adapters that serve it live in server/."""
