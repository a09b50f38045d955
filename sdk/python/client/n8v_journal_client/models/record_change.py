from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecordChange")


@_attrs_define
class RecordChange:
    """A Record that changed in the window.

    Attributes:
        count (int): Lines put on record in the window.
        name (str): The name of the account or organization it belongs to.
        newest_lines (list[str]): The newest of them, newest first.
        record_id (str): `rec_` followed by 26 Crockford base32 characters (a UUIDv7).
        organization_id (None | str | Unset):
    """

    count: int
    name: str
    newest_lines: list[str]
    record_id: str
    organization_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        name = self.name

        newest_lines = self.newest_lines

        record_id = self.record_id

        organization_id: None | str | Unset
        if isinstance(self.organization_id, Unset):
            organization_id = UNSET
        else:
            organization_id = self.organization_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "name": name,
                "newest_lines": newest_lines,
                "record_id": record_id,
            }
        )
        if organization_id is not UNSET:
            field_dict["organization_id"] = organization_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        name = d.pop("name")

        newest_lines = cast(list[str], d.pop("newest_lines"))

        record_id = d.pop("record_id")

        def _parse_organization_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization_id = _parse_organization_id(d.pop("organization_id", UNSET))

        record_change = cls(
            count=count,
            name=name,
            newest_lines=newest_lines,
            record_id=record_id,
            organization_id=organization_id,
        )

        record_change.additional_properties = d
        return record_change

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
