from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EpisodeEntry")


@_attrs_define
class EpisodeEntry:
    """One entry of a posted episode.

    Attributes:
        created (bool): `false` when an earlier post of the same episode made it already.
        open_ (bool): The entry waits for the conversation to settle (written by code until then, and read
            as an open session).
        part (int): The part (from 0).
        session_id (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        updated (bool): An earlier post made it with other turns, and this post rewrote it.
    """

    created: bool
    open_: bool
    part: int
    session_id: str
    updated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created

        open_ = self.open_

        part = self.part

        session_id = self.session_id

        updated = self.updated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "open": open_,
                "part": part,
                "session_id": session_id,
                "updated": updated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = d.pop("created")

        open_ = d.pop("open")

        part = d.pop("part")

        session_id = d.pop("session_id")

        updated = d.pop("updated")

        episode_entry = cls(
            created=created,
            open_=open_,
            part=part,
            session_id=session_id,
            updated=updated,
        )

        episode_entry.additional_properties = d
        return episode_entry

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
