from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RotatedSecret")


@_attrs_define
class RotatedSecret:
    """
    Attributes:
        previous_valid_until (datetime.datetime): Until when the secrets before it keep signing beside it (each delivery
            carries one
            `v1,` signature per secret), so receivers can switch without losing a delivery.
        secret (str): The new signing secret (`whsec_…`): shown this once.
        webhook (str): `whk_` followed by 26 Crockford base32 characters (a UUIDv7).
    """

    previous_valid_until: datetime.datetime
    secret: str
    webhook: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        previous_valid_until = self.previous_valid_until.isoformat()

        secret = self.secret

        webhook = self.webhook

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "previous_valid_until": previous_valid_until,
                "secret": secret,
                "webhook": webhook,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        previous_valid_until = datetime.datetime.fromisoformat(d.pop("previous_valid_until"))

        secret = d.pop("secret")

        webhook = d.pop("webhook")

        rotated_secret = cls(
            previous_valid_until=previous_valid_until,
            secret=secret,
            webhook=webhook,
        )

        rotated_secret.additional_properties = d
        return rotated_secret

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
