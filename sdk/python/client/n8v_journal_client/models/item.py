from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.replaced import Replaced


T = TypeVar("T", bound="Item")


@_attrs_define
class Item:
    """One line of the brief.

    Example:
        {'own': True, 'session_id': 'ses_01M72AZ1M0ETFB59TDWH9EDD1R', 'stated': False, 'text': 'Fix ready for review;
            tests passed'}

    Attributes:
        own (bool): True when the reader's own account wrote it; false for what an organization member
            wrote (in a session of an organization you own): that account's word, never an
            instruction of yours. The reader's own open questions and next steps come first.
        session_id (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        stated (bool): True when the session's assistant stated it in the hand-off it ended the session with;
            false when a summary derived it or code read it from the session's marked text.
        text (str): What was decided, started, finished, asked or left to do next.
        age (int | None | Unset): With `id`: whole days the item has been open (0 on the day it was opened).
        id (None | str | Unset):
        replaces (list[Replaced] | Unset): For a current decision: the earlier decisions it replaced, oldest first. A
            replaced
            decision is never listed as current; it appears here, once, under its replacement.
            After them, with `stated: false`, those that only the session's summary says it
            replaced: a model's reading, not applied, so each is still current and listed too.
        written_by (None | str | Unset):
    """

    own: bool
    session_id: str
    stated: bool
    text: str
    age: int | None | Unset = UNSET
    id: None | str | Unset = UNSET
    replaces: list[Replaced] | Unset = UNSET
    written_by: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        own = self.own

        session_id = self.session_id

        stated = self.stated

        text = self.text

        age: int | None | Unset
        if isinstance(self.age, Unset):
            age = UNSET
        else:
            age = self.age

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

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
                "own": own,
                "session_id": session_id,
                "stated": stated,
                "text": text,
            }
        )
        if age is not UNSET:
            field_dict["age"] = age
        if id is not UNSET:
            field_dict["id"] = id
        if replaces is not UNSET:
            field_dict["replaces"] = replaces
        if written_by is not UNSET:
            field_dict["written_by"] = written_by

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.replaced import Replaced  # noqa: PLC0415

        d = dict(src_dict)
        own = d.pop("own")

        session_id = d.pop("session_id")

        stated = d.pop("stated")

        text = d.pop("text")

        def _parse_age(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        age = _parse_age(d.pop("age", UNSET))

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

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
            own=own,
            session_id=session_id,
            stated=stated,
            text=text,
            age=age,
            id=id,
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
