"""Operator tools: the `flask court` CLI and the simulator."""
