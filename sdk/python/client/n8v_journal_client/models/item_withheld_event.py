from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.item_withheld_event_type import ItemWithheldEventType

if TYPE_CHECKING:
    from ..models.item_withheld import ItemWithheld


T = TypeVar("T", bound="ItemWithheldEvent")


@_attrs_define
class ItemWithheldEvent:
    """
    Attributes:
        data (ItemWithheld): `item.withheld`: an item (a decision, an open question, a next step) was opened whose text
            the
            rules withhold from every automatic hand-off (`withhold`). Its id and the rule, never its
            text. Heard by those who may read its session.
        timestamp (datetime.datetime):
        type_ (ItemWithheldEventType):
    """

    data: ItemWithheld
    timestamp: datetime.datetime
    type_: ItemWithheldEventType
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
        from ..models.item_withheld import ItemWithheld  # noqa: PLC0415

        d = dict(src_dict)
        data = ItemWithheld.from_dict(d.pop("data"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        type_ = ItemWithheldEventType(d.pop("type"))

        item_withheld_event = cls(
            data=data,
            timestamp=timestamp,
            type_=type_,
        )

        item_withheld_event.additional_properties = d
        return item_withheld_event

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
