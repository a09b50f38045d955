from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="LoopChanged")


@_attrs_define
class LoopChanged:
    """`loop.opened` and `loop.closed`: an open question or next step, as it stands.

    Attributes:
        created_at (datetime.datetime):
        item (str): `itm_` followed by 26 Crockford base32 characters (a UUIDv7).
        kind (str): `question` or `next_step`.
        session (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        state (str): `open`, `done`, `answered` or `dropped`.
        text (str):
        closed_at (datetime.datetime | None | Unset):
        closed_session (None | str | Unset):
    """

    created_at: datetime.datetime
    item: str
    kind: str
    session: str
    state: str
    text: str
    closed_at: datetime.datetime | None | Unset = UNSET
    closed_session: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        item = self.item

        kind = self.kind

        session = self.session

        state = self.state

        text = self.text

        closed_at: None | str | Unset
        if isinstance(self.closed_at, Unset):
            closed_at = UNSET
        elif isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

        closed_session: None | str | Unset
        if isinstance(self.closed_session, Unset):
            closed_session = UNSET
        else:
            closed_session = self.closed_session

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "item": item,
                "kind": kind,
                "session": session,
                "state": state,
                "text": text,
            }
        )
        if closed_at is not UNSET:
            field_dict["closed_at"] = closed_at
        if closed_session is not UNSET:
            field_dict["closed_session"] = closed_session

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        item = d.pop("item")

        kind = d.pop("kind")

        session = d.pop("session")

        state = d.pop("state")

        text = d.pop("text")

        def _parse_closed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)

                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        closed_at = _parse_closed_at(d.pop("closed_at", UNSET))

        def _parse_closed_session(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        closed_session = _parse_closed_session(d.pop("closed_session", UNSET))

        loop_changed = cls(
            created_at=created_at,
            item=item,
            kind=kind,
            session=session,
            state=state,
            text=text,
            closed_at=closed_at,
            closed_session=closed_session,
        )

        loop_changed.additional_properties = d
        return loop_changed

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
