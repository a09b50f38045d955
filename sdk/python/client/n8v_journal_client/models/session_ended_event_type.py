from enum import StrEnum


class SessionEndedEventType(StrEnum):
    SESSION_ENDED = "session.ended"

    def __str__(self) -> str:
        return str(self.value)
