from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Item")


@_attrs_define
class Item:
    """One line of the brief.

    Example:
        {'session_id': 'ses_01M72AZ1M0ETFB59TDWH9EDD1R', 'stated': False, 'text': 'Fix ready for review; tests passed'}

    Attributes:
        session_id (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        stated (bool): True when the session's assistant stated it in the hand-off it ended the session with;
            false when a summary derived it or code read it from the session's marked text.
        text (str): What was decided, started, finished, asked or left to do next.
    """

    session_id: str
    stated: bool
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        session_id = self.session_id

        stated = self.stated

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "session_id": session_id,
                "stated": stated,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        session_id = d.pop("session_id")

        stated = d.pop("stated")

        text = d.pop("text")

        item = cls(
            session_id=session_id,
            stated=stated,
            text=text,
        )

        item.additional_properties = d
        return item

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
