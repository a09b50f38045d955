from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tier import Tier
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.author import Author
    from ..models.replaced import Replaced


T = TypeVar("T", bound="Item")


@_attrs_define
class Item:
    """One line of the brief.

    Example:
        {'at': '2026-11-10T09:30:00Z', 'author': {'assistant': 'claude-code', 'key': 'laptop'}, 'own': True,
            'session_id': 'ses_01M72AZ1M0ETFB59TDWH9EDD1R', 'stated': False, 'text': 'Fix ready for review; tests passed',
            'tier': 'derived'}

    Attributes:
        at (datetime.datetime): When it was written: the item's opening, or its session's last activity.
        own (bool): True when the reader's own account wrote it; false for what an organization member
            wrote (in a session of an organization you own): that account's word, never an
            instruction of yours. The reader's own open questions and next steps come first.
        session_id (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        stated (bool): True when the session's assistant stated it in the hand-off it ended the session with;
            false when a summary derived it or code read it from the session's marked text.
        text (str): What was decided, started, finished, asked or left to do next.
        tier (Tier): How far an item is to be trusted, by where it came from; highest first. A client can ask
            for items at or above a tier (`min_tier`); by default every tier is handed over, each item
            marked with its own.
        age (int | None | Unset): With `id`: whole days the item has been open (0 on the day it was opened).
        author (Author | Unset): Who wrote an item: the assistant, and the label of the key it used.
        id (None | str | Unset):
        released_at (datetime.datetime | None | Unset): When the person released it in the journal pages, after the
            rules had withheld it from
            every automatic hand-off: it is handed over again, as written, marked released.
        replaces (list[Replaced] | Unset): For a current decision: the earlier decisions it replaced, oldest first. A
            replaced
            decision is never listed as current; it appears here, once, under its replacement.
            After them, with `stated: false`, those that only the session's summary says it
            replaced: a model's reading, not applied, so each is still current and listed too.
        written_by (None | str | Unset):
    """

    at: datetime.datetime
    own: bool
    session_id: str
    stated: bool
    text: str
    tier: Tier
    age: int | None | Unset = UNSET
    author: Author | Unset = UNSET
    id: None | str | Unset = UNSET
    released_at: datetime.datetime | None | Unset = UNSET
    replaces: list[Replaced] | Unset = UNSET
    written_by: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        own = self.own

        session_id = self.session_id

        stated = self.stated

        text = self.text

        tier = self.tier.value

        age: int | None | Unset
        if isinstance(self.age, Unset):
            age = UNSET
        else:
            age = self.age

        author: dict[str, Any] | Unset = UNSET
        if not isinstance(self.author, Unset):
            author = self.author.to_dict()

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        released_at: None | str | Unset
        if isinstance(self.released_at, Unset):
            released_at = UNSET
        elif isinstance(self.released_at, datetime.datetime):
            released_at = self.released_at.isoformat()
        else:
            released_at = self.released_at

        replaces: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.replaces, Unset):
            replaces = []
            for replaces_item_data in self.replaces:
                replaces_item = replaces_item_data.to_dict()
                replaces.append(replaces_item)

        written_by: None | str | Unset
        if isinstance(self.written_by, Unset):
            written_by = UNSET
        else:
            written_by = self.written_by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "own": own,
                "session_id": session_id,
                "stated": stated,
                "text": text,
                "tier": tier,
            }
        )
        if age is not UNSET:
            field_dict["age"] = age
        if author is not UNSET:
            field_dict["author"] = author
        if id is not UNSET:
            field_dict["id"] = id
        if released_at is not UNSET:
            field_dict["released_at"] = released_at
        if replaces is not UNSET:
            field_dict["replaces"] = replaces
        if written_by is not UNSET:
            field_dict["written_by"] = written_by

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.author import Author  # noqa: PLC0415
        from ..models.replaced import Replaced  # noqa: PLC0415

        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        own = d.pop("own")

        session_id = d.pop("session_id")

        stated = d.pop("stated")

        text = d.pop("text")

        tier = Tier(d.pop("tier"))

        def _parse_age(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        age = _parse_age(d.pop("age", UNSET))

        _author = d.pop("author", UNSET)
        author: Author | Unset
        if isinstance(_author, Unset):
            author = UNSET
        else:
            author = Author.from_dict(_author)

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_released_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                released_at_type_0 = datetime.datetime.fromisoformat(data)

                return released_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        released_at = _parse_released_at(d.pop("released_at", UNSET))

        _replaces = d.pop("replaces", UNSET)
        replaces: list[Replaced] | Unset = UNSET
        if _replaces is not UNSET:
            replaces = []
            for replaces_item_data in _replaces:
                replaces_item = Replaced.from_dict(replaces_item_data)

                replaces.append(replaces_item)

        def _parse_written_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        written_by = _parse_written_by(d.pop("written_by", UNSET))

        item = cls(
            at=at,
            own=own,
            session_id=session_id,
            stated=stated,
            text=text,
            tier=tier,
            age=age,
            author=author,
            id=id,
            released_at=released_at,
            replaces=replaces,
            written_by=written_by,
        )

        item.additional_properties = d
        return item

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
