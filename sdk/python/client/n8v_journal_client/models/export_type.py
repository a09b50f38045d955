from enum import StrEnum


class ExportType(StrEnum):
    CALL = "call"
    DIGEST = "digest"
    SESSION = "session"
    SUMMARY = "summary"

    def __str__(self) -> str:
        return str(self.value)
