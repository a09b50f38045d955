from enum import StrEnum


class LoopClosedEventType(StrEnum):
    LOOP_CLOSED = "loop.closed"

    def __str__(self) -> str:
        return str(self.value)
