from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Provisional")


@_attrs_define
class Provisional:
    """What an open (or not yet summarised) session has done so far, computed at read time.

    Attributes:
        calls (int): How many calls were recorded in the session.
        recent_purposes (list[str]): The most recent distinct purposes (up to 5), newest first.
        writes (int): How many of those calls wrote.
    """

    calls: int
    recent_purposes: list[str]
    writes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        calls = self.calls

        recent_purposes = self.recent_purposes

        writes = self.writes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "calls": calls,
                "recent_purposes": recent_purposes,
                "writes": writes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        calls = d.pop("calls")

        recent_purposes = cast(list[str], d.pop("recent_purposes"))

        writes = d.pop("writes")

        provisional = cls(
            calls=calls,
            recent_purposes=recent_purposes,
            writes=writes,
        )

        provisional.additional_properties = d
        return provisional

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
