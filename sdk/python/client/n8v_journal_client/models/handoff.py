from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Handoff")


@_attrs_define
class Handoff:
    """The lists an assistant hands to the next conversation when it ends a session.

    Example:
        {'decisions': ['Keep the session cookie SameSite=Lax'], 'next_steps': ['Write the migration note for the v1
            endpoint'], 'open_questions': ['Should the retry policy be configurable?']}

    Attributes:
        decisions (list[str] | Unset): Decisions made in the session.
        next_steps (list[str] | Unset): What the next conversation should do first.
        open_questions (list[str] | Unset): Questions left for the person or the next conversation.
    """

    decisions: list[str] | Unset = UNSET
    next_steps: list[str] | Unset = UNSET
    open_questions: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decisions: list[str] | Unset = UNSET
        if not isinstance(self.decisions, Unset):
            decisions = self.decisions

        next_steps: list[str] | Unset = UNSET
        if not isinstance(self.next_steps, Unset):
            next_steps = self.next_steps

        open_questions: list[str] | Unset = UNSET
        if not isinstance(self.open_questions, Unset):
            open_questions = self.open_questions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if decisions is not UNSET:
            field_dict["decisions"] = decisions
        if next_steps is not UNSET:
            field_dict["next_steps"] = next_steps
        if open_questions is not UNSET:
            field_dict["open_questions"] = open_questions

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        decisions = cast(list[str], d.pop("decisions", UNSET))

        next_steps = cast(list[str], d.pop("next_steps", UNSET))

        open_questions = cast(list[str], d.pop("open_questions", UNSET))

        handoff = cls(
            decisions=decisions,
            next_steps=next_steps,
            open_questions=open_questions,
        )

        handoff.additional_properties = d
        return handoff

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
