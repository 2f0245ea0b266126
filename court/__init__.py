"""The court engine: pure rules over frozen data, plus the adapters that serve them."""
