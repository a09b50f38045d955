from enum import StrEnum


class DecisionReplacedEventType(StrEnum):
    DECISION_REPLACED = "decision.replaced"

    def __str__(self) -> str:
        return str(self.value)
