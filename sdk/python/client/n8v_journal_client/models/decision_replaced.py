from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DecisionReplaced")


@_attrs_define
class DecisionReplaced:
    """`decision.replaced`: a decision was replaced by a later one. Heard by those who may read the
    replaced decision's session (`session`).

        Attributes:
            item (str): `itm_` followed by 26 Crockford base32 characters (a UUIDv7).
            replaced_at (datetime.datetime):
            replaced_by (str): `itm_` followed by 26 Crockford base32 characters (a UUIDv7).
            replaced_by_text (str):
            replaced_in (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
            session (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
            text (str):
    """

    item: str
    replaced_at: datetime.datetime
    replaced_by: str
    replaced_by_text: str
    replaced_in: str
    session: str
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        item = self.item

        replaced_at = self.replaced_at.isoformat()

        replaced_by = self.replaced_by

        replaced_by_text = self.replaced_by_text

        replaced_in = self.replaced_in

        session = self.session

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "item": item,
                "replaced_at": replaced_at,
                "replaced_by": replaced_by,
                "replaced_by_text": replaced_by_text,
                "replaced_in": replaced_in,
                "session": session,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        item = d.pop("item")

        replaced_at = datetime.datetime.fromisoformat(d.pop("replaced_at"))

        replaced_by = d.pop("replaced_by")

        replaced_by_text = d.pop("replaced_by_text")

        replaced_in = d.pop("replaced_in")

        session = d.pop("session")

        text = d.pop("text")

        decision_replaced = cls(
            item=item,
            replaced_at=replaced_at,
            replaced_by=replaced_by,
            replaced_by_text=replaced_by_text,
            replaced_in=replaced_in,
            session=session,
            text=text,
        )

        decision_replaced.additional_properties = d
        return decision_replaced

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
