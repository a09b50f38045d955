from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EpisodeTurn")


@_attrs_define
class EpisodeTurn:
    """One turn of the conversation, as the harness sent it (REST and MCP take it as it is).

    Attributes:
        role (str): `user` or `assistant`; other roles (`tool`, `system`) are dropped unread.
        text (str): What was said.
        kind (None | str | Unset): `message` (default); `tool_call`, `tool_output` and `reasoning` are dropped unread.
        private (bool | Unset): A turn the person marked private: dropped unread. Default: False.
    """

    role: str
    text: str
    kind: None | str | Unset = UNSET
    private: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        role = self.role

        text = self.text

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        else:
            kind = self.kind

        private = self.private

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
                "text": text,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if private is not UNSET:
            field_dict["private"] = private

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role = d.pop("role")

        text = d.pop("text")

        def _parse_kind(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        private = d.pop("private", UNSET)

        episode_turn = cls(
            role=role,
            text=text,
            kind=kind,
            private=private,
        )

        return episode_turn
