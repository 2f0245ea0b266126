"""A game's log: records and their hash chain, the codec of events, snapshots, where each line
comes from, receipts, and the JSON shape of every event."""
