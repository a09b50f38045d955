from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.endpoint_disabled_event_type import EndpointDisabledEventType

if TYPE_CHECKING:
    from ..models.endpoint_disabled import EndpointDisabled


T = TypeVar("T", bound="EndpointDisabledEvent")


@_attrs_define
class EndpointDisabledEvent:
    """
    Attributes:
        data (EndpointDisabled): `endpoint.disabled`: an endpoint was disabled after a run of failed attempts.
        timestamp (datetime.datetime):
        type_ (EndpointDisabledEventType):
    """

    data: EndpointDisabled
    timestamp: datetime.datetime
    type_: EndpointDisabledEventType
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
        from ..models.endpoint_disabled import EndpointDisabled  # noqa: PLC0415

        d = dict(src_dict)
        data = EndpointDisabled.from_dict(d.pop("data"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        type_ = EndpointDisabledEventType(d.pop("type"))

        endpoint_disabled_event = cls(
            data=data,
            timestamp=timestamp,
            type_=type_,
        )

        endpoint_disabled_event.additional_properties = d
        return endpoint_disabled_event

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
