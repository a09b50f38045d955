from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AuditEntry")


@_attrs_define
class AuditEntry:
    """An entry of the account's audit log: one per public API request, kept under the audit
    log's own rules.

        Example:
            {'at': '2026-11-10T09:02:05Z', 'id': 'aud_01M72B2VP8E7KTHRJXJG7DJ13N', 'key_id':
                'key_01KZKXJDM0F4QS4FR84G98PBSK', 'method': 'GET', 'path':
                '/api/v1/records/rec_01KYP3WV40ER08K6AGV0VFCXEC/entries', 'request_id': '6f1c0a4e-2b7d-4c55-9d1e-0c8f2a7b3e91',
                'status': 200}

        Attributes:
            at (datetime.datetime): When the request was made.
            id (str): `aud_` followed by 26 Crockford base32 characters (a UUIDv7).
            method (str): The HTTP method of the request.
            path (str): The request path, credentials scrubbed.
            request_id (str): The request's `x-request-id`.
            status (int): The HTTP status of the answer.
            key_id (None | str | Unset):
    """

    at: datetime.datetime
    id: str
    method: str
    path: str
    request_id: str
    status: int
    key_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        id = self.id

        method = self.method

        path = self.path

        request_id = self.request_id

        status = self.status

        key_id: None | str | Unset
        if isinstance(self.key_id, Unset):
            key_id = UNSET
        else:
            key_id = self.key_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "id": id,
                "method": method,
                "path": path,
                "request_id": request_id,
                "status": status,
            }
        )
        if key_id is not UNSET:
            field_dict["key_id"] = key_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        id = d.pop("id")

        method = d.pop("method")

        path = d.pop("path")

        request_id = d.pop("request_id")

        status = d.pop("status")

        def _parse_key_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        key_id = _parse_key_id(d.pop("key_id", UNSET))

        audit_entry = cls(
            at=at,
            id=id,
            method=method,
            path=path,
            request_id=request_id,
            status=status,
            key_id=key_id,
        )

        audit_entry.additional_properties = d
        return audit_entry

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
