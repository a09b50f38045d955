from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WithheldMark")


@_attrs_define
class WithheldMark:
    """How an explicit read (the item list, the export) marks a text the rules withhold from every
    automatic hand-off: the text is there, for the person; this says it is withheld and why.

        Attributes:
            reason (str): The rule, in a sentence for a person.
            rule (str): The rule (`override`, `role-marker`, `fetch-execute`, `exfiltration`,
                `claimed-approval`, `hidden-text`, `encoded-blob`, `active-link`).
    """

    reason: str
    rule: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        rule = self.rule

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reason": reason,
                "rule": rule,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = d.pop("reason")

        rule = d.pop("rule")

        withheld_mark = cls(
            reason=reason,
            rule=rule,
        )

        withheld_mark.additional_properties = d
        return withheld_mark

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
