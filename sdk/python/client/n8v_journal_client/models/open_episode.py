from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OpenEpisode")


@_attrs_define
class OpenEpisode:
    """An episode of the caller's credential whose last post found it unsettled: at least one of
    its parts is still code's entry, waiting for a post that drafts it.

        Attributes:
            episode_id (str): The harness's id for the conversation, as it was posted.
            harness (str): The harness that posted it (`claude-code`, `codex`, …).
            last_turn_at (datetime.datetime): The last turn its posts told of.
            open_parts (int): How many of its parts wait.
    """

    episode_id: str
    harness: str
    last_turn_at: datetime.datetime
    open_parts: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        episode_id = self.episode_id

        harness = self.harness

        last_turn_at = self.last_turn_at.isoformat()

        open_parts = self.open_parts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "episode_id": episode_id,
                "harness": harness,
                "last_turn_at": last_turn_at,
                "open_parts": open_parts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        episode_id = d.pop("episode_id")

        harness = d.pop("harness")

        last_turn_at = datetime.datetime.fromisoformat(d.pop("last_turn_at"))

        open_parts = d.pop("open_parts")

        open_episode = cls(
            episode_id=episode_id,
            harness=harness,
            last_turn_at=last_turn_at,
            open_parts=open_parts,
        )

        open_episode.additional_properties = d
        return open_episode

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
