from enum import StrEnum


class ItemWithheldEventType(StrEnum):
    ITEM_WITHHELD = "item.withheld"

    def __str__(self) -> str:
        return str(self.value)
