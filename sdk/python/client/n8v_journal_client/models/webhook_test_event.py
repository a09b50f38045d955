from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_test_event_type import WebhookTestEventType

if TYPE_CHECKING:
    from ..models.webhook_test import WebhookTest


T = TypeVar("T", bound="WebhookTestEvent")


@_attrs_define
class WebhookTestEvent:
    """
    Attributes:
        data (WebhookTest): `webhook.test`: sent to one endpoint on request (`POST /api/v1/webhooks/{id}/test`, or
            Settings' "Send a test event"), whatever events it asked for.
        timestamp (datetime.datetime):
        type_ (WebhookTestEventType):
    """

    data: WebhookTest
    timestamp: datetime.datetime
    type_: WebhookTestEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        timestamp = self.timestamp.isoformat()

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "timestamp": timestamp,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_test import WebhookTest  # noqa: PLC0415

        d = dict(src_dict)
        data = WebhookTest.from_dict(d.pop("data"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        type_ = WebhookTestEventType(d.pop("type"))

        webhook_test_event = cls(
            data=data,
            timestamp=timestamp,
            type_=type_,
        )

        webhook_test_event.additional_properties = d
        return webhook_test_event

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
