from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="FlagValue")


@_attrs_define
class FlagValue:
    """A feature flag's value.

    Example:
        {'account': 'acc_01KYP3WV40FHEAD8X4A1JH69RE', 'enabled': True, 'flag': 'assistantJournal'}

    Attributes:
        enabled (bool): Whether it is on: the account's override, else the global value, else the default.
        flag (str): The flag, e.g. `assistantJournal` (the assistant journal; off by default).
        account (None | str | Unset): The account the value applies to (`acc_…`); absent for the global value.
    """

    enabled: bool
    flag: str
    account: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        flag = self.flag

        account: None | str | Unset
        if isinstance(self.account, Unset):
            account = UNSET
        else:
            account = self.account

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enabled": enabled,
                "flag": flag,
            }
        )
        if account is not UNSET:
            field_dict["account"] = account

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        flag = d.pop("flag")

        def _parse_account(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        account = _parse_account(d.pop("account", UNSET))

        flag_value = cls(
            enabled=enabled,
            flag=flag,
            account=account,
        )

        flag_value.additional_properties = d
        return flag_value

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
