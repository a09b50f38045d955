from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClaudeCodeHookInput")


@_attrs_define
class ClaudeCodeHookInput:
    """A Claude Code hook's input, as Claude Code posts it (fields it adds are ignored, and the
    prompt is never read).

        Attributes:
            hook_event_name (str): The event: `UserPromptSubmit` and `SessionStart` load the journal; `Stop`,
                `SessionEnd`, `PreCompact` and Claude Code's other events change nothing.
            session_id (None | str | Unset): Claude Code's id for the conversation: the journal is loaded once per id.
    """

    hook_event_name: str
    session_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hook_event_name = self.hook_event_name

        session_id: None | str | Unset
        if isinstance(self.session_id, Unset):
            session_id = UNSET
        else:
            session_id = self.session_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hook_event_name": hook_event_name,
            }
        )
        if session_id is not UNSET:
            field_dict["session_id"] = session_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        hook_event_name = d.pop("hook_event_name")

        def _parse_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_id = _parse_session_id(d.pop("session_id", UNSET))

        claude_code_hook_input = cls(
            hook_event_name=hook_event_name,
            session_id=session_id,
        )

        claude_code_hook_input.additional_properties = d
        return claude_code_hook_input

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
