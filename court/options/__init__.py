"""What a seat or the host can do now, and who the court waits on: the legal commands, the
recordable facts, the electorate, the seats the clocks await and the bot's policy."""
