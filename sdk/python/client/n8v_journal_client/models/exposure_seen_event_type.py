from enum import StrEnum


class ExposureSeenEventType(StrEnum):
    EXPOSURE_SEEN = "exposure.seen"

    def __str__(self) -> str:
        return str(self.value)
