from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Replaced")


@_attrs_define
class Replaced:
    """An earlier decision a current one replaced (or, `stated: false`, that its session's summary
    says it replaced), as the brief and `/journal.md` show it under the current one.

        Attributes:
            id (str): `itm_` followed by 26 Crockford base32 characters (a UUIDv7).
            session_id (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
            stated (bool): True when it was replaced (by `session_end`'s `replaces`, a `Replaces itm_…:` line or
                the replace operation): it is no longer current. False when only a model's summary of
                the session says so (derived): never applied, the earlier decision stays current until
                its assistant or the person replaces it.
            text (str): In the words of the session that made it.
    """

    id: str
    session_id: str
    stated: bool
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        session_id = self.session_id

        stated = self.stated

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "session_id": session_id,
                "stated": stated,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        session_id = d.pop("session_id")

        stated = d.pop("stated")

        text = d.pop("text")

        replaced = cls(
            id=id,
            session_id=session_id,
            stated=stated,
            text=text,
        )

        replaced.additional_properties = d
        return replaced

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
