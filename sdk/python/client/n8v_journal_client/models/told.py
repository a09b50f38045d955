from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Told")


@_attrs_define
class Told:
    """One hand-over to a conversation: what it was told, and from where.

    Example:
        {'at': '2026-11-10T10:42:10Z', 'call_id': 'call_01M72B7C00EDV8XKQ3RN1Z3H6B', 'chars': 4210, 'items':
            ['itm_01M72B6Q00EDV8XKQ3RN1Z3H6A'], 'operation': 'journal_catch_up', 'purpose': 'Catch up before starting',
            'sessions': ['ses_01M72AZ1M0ETFB59TDWH9EDD1R']}

    Attributes:
        at (datetime.datetime):
        call_id (str): `call_` followed by 26 Crockford base32 characters (a UUIDv7).
        chars (int): How many characters it answered.
        items (list[str]): The items it handed over (`itm_…`): decisions, open questions and next steps.
        operation (str): How it was read: `getCatchUp` (REST), `journal_catch_up` (MCP, and the brief resource),
            `getJournalMarkdown` (`/journal.md`, and the window resource).
        sessions (list[str]): The sessions it handed over (`ses_…`), newest first.
        purpose (None | str | Unset): Why, as the assistant said (a resource read says which resource).
    """

    at: datetime.datetime
    call_id: str
    chars: int
    items: list[str]
    operation: str
    sessions: list[str]
    purpose: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        call_id = self.call_id

        chars = self.chars

        items = self.items

        operation = self.operation

        sessions = self.sessions

        purpose: None | str | Unset
        if isinstance(self.purpose, Unset):
            purpose = UNSET
        else:
            purpose = self.purpose

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "call_id": call_id,
                "chars": chars,
                "items": items,
                "operation": operation,
                "sessions": sessions,
            }
        )
        if purpose is not UNSET:
            field_dict["purpose"] = purpose

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        call_id = d.pop("call_id")

        chars = d.pop("chars")

        items = cast(list[str], d.pop("items"))

        operation = d.pop("operation")

        sessions = cast(list[str], d.pop("sessions"))

        def _parse_purpose(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        purpose = _parse_purpose(d.pop("purpose", UNSET))

        told = cls(
            at=at,
            call_id=call_id,
            chars=chars,
            items=items,
            operation=operation,
            sessions=sessions,
            purpose=purpose,
        )

        told.additional_properties = d
        return told

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
