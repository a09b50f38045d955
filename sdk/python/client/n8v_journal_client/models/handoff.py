from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.replacing import Replacing


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
        replaces (list[Replacing] | Unset): Earlier decisions (`itm_…`) that decisions of this list replace: those
            `session_end`'s
            `replaces` named (replaced by its first decision), and those its text marked
            `Replaces itm_…:`.
    """

    decisions: list[str] | Unset = UNSET
    next_steps: list[str] | Unset = UNSET
    open_questions: list[str] | Unset = UNSET
    replaces: list[Replacing] | Unset = UNSET
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

        replaces: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.replaces, Unset):
            replaces = []
            for replaces_item_data in self.replaces:
                replaces_item = replaces_item_data.to_dict()
                replaces.append(replaces_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if decisions is not UNSET:
            field_dict["decisions"] = decisions
        if next_steps is not UNSET:
            field_dict["next_steps"] = next_steps
        if open_questions is not UNSET:
            field_dict["open_questions"] = open_questions
        if replaces is not UNSET:
            field_dict["replaces"] = replaces

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.replacing import Replacing  # noqa: PLC0415

        d = dict(src_dict)
        decisions = cast(list[str], d.pop("decisions", UNSET))

        next_steps = cast(list[str], d.pop("next_steps", UNSET))

        open_questions = cast(list[str], d.pop("open_questions", UNSET))

        _replaces = d.pop("replaces", UNSET)
        replaces: list[Replacing] | Unset = UNSET
        if _replaces is not UNSET:
            replaces = []
            for replaces_item_data in _replaces:
                replaces_item = Replacing.from_dict(replaces_item_data)

                replaces.append(replaces_item)

        handoff = cls(
            decisions=decisions,
            next_steps=next_steps,
            open_questions=open_questions,
            replaces=replaces,
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
