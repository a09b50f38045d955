from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.decision_replaced_event_type import DecisionReplacedEventType

if TYPE_CHECKING:
    from ..models.decision_replaced import DecisionReplaced


T = TypeVar("T", bound="DecisionReplacedEvent")


@_attrs_define
class DecisionReplacedEvent:
    """
    Attributes:
        data (DecisionReplaced): `decision.replaced`: a decision was replaced by a later one. Heard by those who may
            read the
            replaced decision's session (`session`).
        timestamp (datetime.datetime):
        type_ (DecisionReplacedEventType):
    """

    data: DecisionReplaced
    timestamp: datetime.datetime
    type_: DecisionReplacedEventType
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
        from ..models.decision_replaced import DecisionReplaced  # noqa: PLC0415

        d = dict(src_dict)
        data = DecisionReplaced.from_dict(d.pop("data"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        type_ = DecisionReplacedEventType(d.pop("type"))

        decision_replaced_event = cls(
            data=data,
            timestamp=timestamp,
            type_=type_,
        )

        decision_replaced_event.additional_properties = d
        return decision_replaced_event

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
