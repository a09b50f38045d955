from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeleteAccountRequest")


@_attrs_define
class DeleteAccountRequest:
    """Deletes the caller's account: the confirmation a deletion needs.

    Attributes:
        confirm (str): This account's id (`acc_…`), repeated to confirm.
    """

    confirm: str

    def to_dict(self) -> dict[str, Any]:
        confirm = self.confirm

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "confirm": confirm,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        confirm = d.pop("confirm")

        delete_account_request = cls(
            confirm=confirm,
        )

        return delete_account_request
