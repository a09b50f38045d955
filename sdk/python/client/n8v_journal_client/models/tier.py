from enum import StrEnum


class Tier(StrEnum):
    DERIVED = "derived"
    ORGANIZATION = "organization"
    OTHER_CREDENTIAL = "other_credential"
    PERSON = "person"
    THIS_CREDENTIAL = "this_credential"

    def __str__(self) -> str:
        return str(self.value)
