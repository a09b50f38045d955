from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.account_deleted_deleted import AccountDeletedDeleted


T = TypeVar("T", bound="AccountDeleted")


@_attrs_define
class AccountDeleted:
    """What the deletion removed.

    Attributes:
        account_id (str): `acc_` followed by 26 Crockford base32 characters (a UUIDv7).
        deleted (AccountDeletedDeleted): Rows deleted per table (`apalis.jobs`: queued jobs of the account).
    """

    account_id: str
    deleted: AccountDeletedDeleted
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        deleted = self.deleted.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "account_id": account_id,
                "deleted": deleted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_deleted_deleted import AccountDeletedDeleted  # noqa: PLC0415

        d = dict(src_dict)
        account_id = d.pop("account_id")

        deleted = AccountDeletedDeleted.from_dict(d.pop("deleted"))

        account_deleted = cls(
            account_id=account_id,
            deleted=deleted,
        )

        account_deleted.additional_properties = d
        return account_deleted

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
