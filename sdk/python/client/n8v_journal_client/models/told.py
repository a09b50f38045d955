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
            'sessions': ['ses_01M72AZ1M0ETFB59TDWH9EDD1R'], 'unreadable': 0}

    Attributes:
        at (datetime.datetime):
        call_id (str): `call_` followed by 26 Crockford base32 characters (a UUIDv7).
        items (list[str]): The items it handed over (`itm_…`) that this reader can read: decisions, open questions
            and next steps.
        operation (str): How it was read: `getCatchUp` (REST), `journal_catch_up` (MCP, and the brief resource),
            `getJournalMarkdown` (`/journal.md`, and the window resource).
        sessions (list[str]): The sessions it handed over (`ses_…`) that this reader can read, newest first.
        chars (int | None | Unset): How many characters it answered; absent when it handed over what this reader cannot
            read (its size would tell of it).
        purpose (None | str | Unset): Why, as the assistant said (a resource read says which resource).
        unreadable (int | Unset): How many sessions and items it handed over that this reader cannot read (an
            organization's owner reading a member's session): counted, never named.
    """

    at: datetime.datetime
    call_id: str
    items: list[str]
    operation: str
    sessions: list[str]
    chars: int | None | Unset = UNSET
    purpose: None | str | Unset = UNSET
    unreadable: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        call_id = self.call_id

        items = self.items

        operation = self.operation

        sessions = self.sessions

        chars: int | None | Unset
        if isinstance(self.chars, Unset):
            chars = UNSET
        else:
            chars = self.chars

        purpose: None | str | Unset
        if isinstance(self.purpose, Unset):
            purpose = UNSET
        else:
            purpose = self.purpose

        unreadable = self.unreadable

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "call_id": call_id,
                "items": items,
                "operation": operation,
                "sessions": sessions,
            }
        )
        if chars is not UNSET:
            field_dict["chars"] = chars
        if purpose is not UNSET:
            field_dict["purpose"] = purpose
        if unreadable is not UNSET:
            field_dict["unreadable"] = unreadable

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        call_id = d.pop("call_id")

        items = cast(list[str], d.pop("items"))

        operation = d.pop("operation")

        sessions = cast(list[str], d.pop("sessions"))

        def _parse_chars(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        chars = _parse_chars(d.pop("chars", UNSET))

        def _parse_purpose(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        purpose = _parse_purpose(d.pop("purpose", UNSET))

        unreadable = d.pop("unreadable", UNSET)

        told = cls(
            at=at,
            call_id=call_id,
            items=items,
            operation=operation,
            sessions=sessions,
            chars=chars,
            purpose=purpose,
            unreadable=unreadable,
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
