"""Telling players it is their turn away from the page: a game's webhook (Discord, Slack) and
the outbox of notices sent to it."""
