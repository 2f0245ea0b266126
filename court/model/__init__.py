"""The values the court state is made of (seats, the table, links and tokens, steps, text,
dice, invites, the ending), and the rules profile and ruleset a game is played with."""
