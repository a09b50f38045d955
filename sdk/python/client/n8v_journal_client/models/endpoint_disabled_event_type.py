from enum import StrEnum


class EndpointDisabledEventType(StrEnum):
    ENDPOINT_DISABLED = "endpoint.disabled"

    def __str__(self) -> str:
        return str(self.value)
