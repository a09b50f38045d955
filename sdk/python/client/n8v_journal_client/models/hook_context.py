from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="HookContext")


@_attrs_define
class HookContext:
    """Context a hook adds to the conversation.

    Attributes:
        additional_context (str): The recent journal as markdown (what `GET /journal.md` answers).
        hook_event_name (str): The event answered.
    """

    additional_context: str
    hook_event_name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        additional_context = self.additional_context

        hook_event_name = self.hook_event_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "additionalContext": additional_context,
                "hookEventName": hook_event_name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        additional_context = d.pop("additionalContext")

        hook_event_name = d.pop("hookEventName")

        hook_context = cls(
            additional_context=additional_context,
            hook_event_name=hook_event_name,
        )

        hook_context.additional_properties = d
        return hook_context

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
