"""Errors the engine raises: every one carries a stable code and a sentence a player can read."""


class CourtError(Exception):
    """A command the rules refuse. `code` is stable; `message` names the rule."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class NotAllowed(CourtError):
    """The actor may not send this command at all (wrong seat, not the host)."""


class BadRecord(CourtError):
    """A stored or imported record cannot be read (unknown type, bad shape)."""


class NotFound(CourtError):
    """No such game, version or thing the command names."""


class UnknownGame(NotFound):
    def __init__(self, game_id: str) -> None:
        super().__init__("unknown_game", f"There is no game {game_id!r}.")


class CorruptLog(CourtError):
    """A stored log that cannot be replayed: someone changed the database by hand."""


class BadToken(CourtError):
    """A seat token is missing where one is needed, or matches no seat of this game."""


class EngineDefect(CourtError):
    """The court could not decide a command soundly: deciding it failed, or led to a court
    its own invariants refuse. Nothing was stored; the defect is logged for the operator."""

    def __init__(self) -> None:
        super().__init__(
            "engine_defect",
            "The court could not decide this soundly (a defect of the server, now logged for "
            "the operator); the game is unchanged. Try another move, or ask the host.",
        )


class Conflict(CourtError):
    """Another command changed the game first and retries ran out."""


class ConcurrencyError(Exception):
    """An append found the expected version already taken (the optimistic lock)."""

    def __init__(self, game_id: str, expected_version: int) -> None:
        super().__init__(
            f"game {game_id}: version {expected_version + 1} was appended by someone else"
        )
        self.game_id = game_id
        self.expected_version = expected_version
