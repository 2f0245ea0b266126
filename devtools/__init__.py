"""Tools that run the server for tests, benches and the loopback deployment: court server
processes (`servers`) and nginx in front of them (`nginx`); and the mutation check: the bugs it
plants and its command (`mutants`), planting them in a copy of the tree and running pytest there
(`mutation`)."""
