from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Entry")


@_attrs_define
class Entry:
    """One line put on record.

    Example:
        {'author_account_id': 'acc_01KYP3WV40FHEAD8X4A1JH69RE', 'created_at': '2026-11-10T10:00:00Z', 'id':
            'ent_01M72ECX80E7HAP3AMKDQG6STT', 'line': 'Fix ready for review; tests passed', 'record_id':
            'rec_01KYP3WV40ER08K6AGV0VFCXEC'}

    Attributes:
        author_account_id (str): `acc_` followed by 26 Crockford base32 characters (a UUIDv7).
        created_at (datetime.datetime): When it was put on record.
        id (str): `ent_` followed by 26 Crockford base32 characters (a UUIDv7).
        line (str): The line: one line of text, credentials scrubbed.
        record_id (str): `rec_` followed by 26 Crockford base32 characters (a UUIDv7).
    """

    author_account_id: str
    created_at: datetime.datetime
    id: str
    line: str
    record_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author_account_id = self.author_account_id

        created_at = self.created_at.isoformat()

        id = self.id

        line = self.line

        record_id = self.record_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author_account_id": author_account_id,
                "created_at": created_at,
                "id": id,
                "line": line,
                "record_id": record_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        author_account_id = d.pop("author_account_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        line = d.pop("line")

        record_id = d.pop("record_id")

        entry = cls(
            author_account_id=author_account_id,
            created_at=created_at,
            id=id,
            line=line,
            record_id=record_id,
        )

        entry.additional_properties = d
        return entry

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
