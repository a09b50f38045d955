from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DecisionState")


@_attrs_define
class DecisionState:
    """A decision that is an item (`itm_…`), as it stands when read: beside its text wherever a
    reader is shown it, so that a decision replaced since is never said as if it still stood.

        Example:
            {'id': 'itm_01M72B6Q00EDV8XKQ3RN1Z3H6A', 'replaced_by': 'itm_01M72C0K00F3B2M1Q9QZ6X4W7T', 'replaced_by_text':
                'Use SELECT FOR UPDATE SKIP LOCKED for the job queue', 'state': 'replaced', 'text': 'Use PostgreSQL advisory
                locks for the job queue'}

        Attributes:
            id (str): `itm_` followed by 26 Crockford base32 characters (a UUIDv7).
            state (str): `current`, or `replaced` once a later decision replaced it.
            text (str): In the words of the session that opened it.
            replaced_by (None | str | Unset):
            replaced_by_text (None | str | Unset): With `replaced_by`: that decision's text.
    """

    id: str
    state: str
    text: str
    replaced_by: None | str | Unset = UNSET
    replaced_by_text: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        state = self.state

        text = self.text

        replaced_by: None | str | Unset
        if isinstance(self.replaced_by, Unset):
            replaced_by = UNSET
        else:
            replaced_by = self.replaced_by

        replaced_by_text: None | str | Unset
        if isinstance(self.replaced_by_text, Unset):
            replaced_by_text = UNSET
        else:
            replaced_by_text = self.replaced_by_text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "state": state,
                "text": text,
            }
        )
        if replaced_by is not UNSET:
            field_dict["replaced_by"] = replaced_by
        if replaced_by_text is not UNSET:
            field_dict["replaced_by_text"] = replaced_by_text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        state = d.pop("state")

        text = d.pop("text")

        def _parse_replaced_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        replaced_by = _parse_replaced_by(d.pop("replaced_by", UNSET))

        def _parse_replaced_by_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        replaced_by_text = _parse_replaced_by_text(d.pop("replaced_by_text", UNSET))

        decision_state = cls(
            id=id,
            state=state,
            text=text,
            replaced_by=replaced_by,
            replaced_by_text=replaced_by_text,
        )

        decision_state.additional_properties = d
        return decision_state

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
