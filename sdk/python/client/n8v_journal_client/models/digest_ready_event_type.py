from enum import StrEnum


class DigestReadyEventType(StrEnum):
    DIGEST_READY = "digest.ready"

    def __str__(self) -> str:
        return str(self.value)
