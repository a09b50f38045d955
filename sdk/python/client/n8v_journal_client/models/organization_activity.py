from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OrganizationActivity")


@_attrs_define
class OrganizationActivity:
    """A call another account made on the Record of an organization you own: that organization's
    activity, whichever session it was made in.

        Attributes:
            account_id (str): `acc_` followed by 26 Crockford base32 characters (a UUIDv7).
            at (datetime.datetime): When.
            call_id (str): `call_` followed by 26 Crockford base32 characters (a UUIDv7).
            operation (str): The operation called.
            organization_id (str): `org_` followed by 26 Crockford base32 characters (a UUIDv7).
            wrote (bool): Whether it wrote.
            purpose (None | str | Unset): Why it was called, as the member's assistant said.
    """

    account_id: str
    at: datetime.datetime
    call_id: str
    operation: str
    organization_id: str
    wrote: bool
    purpose: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        at = self.at.isoformat()

        call_id = self.call_id

        operation = self.operation

        organization_id = self.organization_id

        wrote = self.wrote

        purpose: None | str | Unset
        if isinstance(self.purpose, Unset):
            purpose = UNSET
        else:
            purpose = self.purpose

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "account_id": account_id,
                "at": at,
                "call_id": call_id,
                "operation": operation,
                "organization_id": organization_id,
                "wrote": wrote,
            }
        )
        if purpose is not UNSET:
            field_dict["purpose"] = purpose

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        account_id = d.pop("account_id")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        call_id = d.pop("call_id")

        operation = d.pop("operation")

        organization_id = d.pop("organization_id")

        wrote = d.pop("wrote")

        def _parse_purpose(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        purpose = _parse_purpose(d.pop("purpose", UNSET))

        organization_activity = cls(
            account_id=account_id,
            at=at,
            call_id=call_id,
            operation=operation,
            organization_id=organization_id,
            wrote=wrote,
            purpose=purpose,
        )

        organization_activity.additional_properties = d
        return organization_activity

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
