"""Tools that run the server for tests, benches and the loopback deployment: court server
processes (`servers`) and nginx in front of them (`nginx`)."""
