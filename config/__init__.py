"""Settings and rules data: what an operator configures, and the rules a new game copies."""
