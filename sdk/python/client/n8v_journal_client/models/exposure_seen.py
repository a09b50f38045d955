from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ExposureSeen")


@_attrs_define
class ExposureSeen:
    """`exposure.seen`: a credential was scrubbed in a session (never the credential itself).

    Attributes:
        exposure (str): `exp_` followed by 26 Crockford base32 characters (a UUIDv7).
        fields (list[str]): The kinds of text it was scrubbed from: `purpose`, `goal`, `outcome`, `handoff`,
            `target`.
        label (str): What it is, in words (`a GitHub token`).
        rule (str): The rule that found it (`github-pat`, …).
        seen_at (datetime.datetime):
        session (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
    """

    exposure: str
    fields: list[str]
    label: str
    rule: str
    seen_at: datetime.datetime
    session: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        exposure = self.exposure

        fields = self.fields

        label = self.label

        rule = self.rule

        seen_at = self.seen_at.isoformat()

        session = self.session

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "exposure": exposure,
                "fields": fields,
                "label": label,
                "rule": rule,
                "seen_at": seen_at,
                "session": session,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        exposure = d.pop("exposure")

        fields = cast(list[str], d.pop("fields"))

        label = d.pop("label")

        rule = d.pop("rule")

        seen_at = datetime.datetime.fromisoformat(d.pop("seen_at"))

        session = d.pop("session")

        exposure_seen = cls(
            exposure=exposure,
            fields=fields,
            label=label,
            rule=rule,
            seen_at=seen_at,
            session=session,
        )

        exposure_seen.additional_properties = d
        return exposure_seen

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
