from enum import StrEnum


class LoopOpenedEventType(StrEnum):
    LOOP_OPENED = "loop.opened"

    def __str__(self) -> str:
        return str(self.value)
