from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.hook_context import HookContext


T = TypeVar("T", bound="HookAnswer")


@_attrs_define
class HookAnswer:
    """What Claude Code reads from a hook's answer: `{}` (nothing to add), or the context for
    the conversation.

        Attributes:
            hook_specific_output (HookContext | None | Unset):
    """

    hook_specific_output: HookContext | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.hook_context import HookContext  # noqa: PLC0415

        hook_specific_output: dict[str, Any] | None | Unset
        if isinstance(self.hook_specific_output, Unset):
            hook_specific_output = UNSET
        elif isinstance(self.hook_specific_output, HookContext):
            hook_specific_output = self.hook_specific_output.to_dict()
        else:
            hook_specific_output = self.hook_specific_output

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if hook_specific_output is not UNSET:
            field_dict["hookSpecificOutput"] = hook_specific_output

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.hook_context import HookContext  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_hook_specific_output(data: object) -> HookContext | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                hook_specific_output_type_0 = HookContext.from_dict(data)

                return hook_specific_output_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HookContext | None | Unset, data)

        hook_specific_output = _parse_hook_specific_output(d.pop("hookSpecificOutput", UNSET))

        hook_answer = cls(
            hook_specific_output=hook_specific_output,
        )

        hook_answer.additional_properties = d
        return hook_answer

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
