from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EndpointDisabled")


@_attrs_define
class EndpointDisabled:
    """`endpoint.disabled`: an endpoint was disabled after a run of failed attempts.

    Attributes:
        disabled_at (datetime.datetime):
        failures (int):
        url (str):
        webhook (str): `whk_` followed by 26 Crockford base32 characters (a UUIDv7).
    """

    disabled_at: datetime.datetime
    failures: int
    url: str
    webhook: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        disabled_at = self.disabled_at.isoformat()

        failures = self.failures

        url = self.url

        webhook = self.webhook

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "disabled_at": disabled_at,
                "failures": failures,
                "url": url,
                "webhook": webhook,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        disabled_at = datetime.datetime.fromisoformat(d.pop("disabled_at"))

        failures = d.pop("failures")

        url = d.pop("url")

        webhook = d.pop("webhook")

        endpoint_disabled = cls(
            disabled_at=disabled_at,
            failures=failures,
            url=url,
            webhook=webhook,
        )

        endpoint_disabled.additional_properties = d
        return endpoint_disabled

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
