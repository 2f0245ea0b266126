"""What every court state must keep: the invariants and those of the table, the checks that
remember their last answer, and what the server's follow-ups must have settled."""
