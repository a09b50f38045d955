from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ItemWithheld")


@_attrs_define
class ItemWithheld:
    """`item.withheld`: an item (a decision, an open question, a next step) was opened whose text the
    rules withhold from every automatic hand-off (`withhold`). Its id and the rule, never its
    text. Heard by those who may read its session.

        Attributes:
            item (str): `itm_` followed by 26 Crockford base32 characters (a UUIDv7).
            kind (str): `decision`, `question` or `next_step`.
            reason (str): The rule, in a sentence for a person.
            rule (str): The rule (`override`, `role-marker`, `fetch-execute`, `exfiltration`, `claimed-approval`,
                `hidden-text`, `encoded-blob`, `active-link`).
            session (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
    """

    item: str
    kind: str
    reason: str
    rule: str
    session: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        item = self.item

        kind = self.kind

        reason = self.reason

        rule = self.rule

        session = self.session

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "item": item,
                "kind": kind,
                "reason": reason,
                "rule": rule,
                "session": session,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        item = d.pop("item")

        kind = d.pop("kind")

        reason = d.pop("reason")

        rule = d.pop("rule")

        session = d.pop("session")

        item_withheld = cls(
            item=item,
            kind=kind,
            reason=reason,
            rule=rule,
            session=session,
        )

        item_withheld.additional_properties = d
        return item_withheld

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
