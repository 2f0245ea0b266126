"""The court service and what only it uses: the write side with its per-game locks and their
back-off, what it fills into commands, the one replay path, whole-log reads, verification and
import, snapshot checks, talk, seat keys, table links, the rules profiles and its ports."""
