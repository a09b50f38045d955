from enum import StrEnum


class SummaryReadyEventType(StrEnum):
    SUMMARY_READY = "summary.ready"

    def __str__(self) -> str:
        return str(self.value)
