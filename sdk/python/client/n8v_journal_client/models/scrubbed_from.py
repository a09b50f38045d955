from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScrubbedFrom")


@_attrs_define
class ScrubbedFrom:
    """How many of an exposure's sightings each kind of text holds.

    Attributes:
        goals (int): Goals sessions were opened with.
        handoff_items (int): Decisions, open questions and next steps of hand-offs.
        outcomes (int): Outcomes sessions were closed with.
        purposes (int): Purposes (`X-Purpose`, the tools' `purpose`).
        targets (int): Ids the caller sent that were not ids (path parameters, tool arguments).
    """

    goals: int
    handoff_items: int
    outcomes: int
    purposes: int
    targets: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        goals = self.goals

        handoff_items = self.handoff_items

        outcomes = self.outcomes

        purposes = self.purposes

        targets = self.targets

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "goals": goals,
                "handoff_items": handoff_items,
                "outcomes": outcomes,
                "purposes": purposes,
                "targets": targets,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        goals = d.pop("goals")

        handoff_items = d.pop("handoff_items")

        outcomes = d.pop("outcomes")

        purposes = d.pop("purposes")

        targets = d.pop("targets")

        scrubbed_from = cls(
            goals=goals,
            handoff_items=handoff_items,
            outcomes=outcomes,
            purposes=purposes,
            targets=targets,
        )

        scrubbed_from.additional_properties = d
        return scrubbed_from

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
