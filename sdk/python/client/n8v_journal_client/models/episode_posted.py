from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.episode_entry import EpisodeEntry


T = TypeVar("T", bound="EpisodePosted")


@_attrs_define
class EpisodePosted:
    """What a post made.

    Attributes:
        dropped_turns (int): Turns dropped unread: tool calls and output, reasoning, private turns, other roles.
        entries (list[EpisodeEntry]): One entry per part; none when the assistant never replied.
        episode_id (str): The harness's episode id (credentials scrubbed).
        settled (bool): Whether the conversation counted as settled: `ended`, its last turn
            `N8V_EPISODE_SETTLE_MINUTES` old, or that setting 0.
        hidden_characters (int | Unset): Characters that hide or reorder text (Unicode tag characters, bidirectional
            embeddings, overrides and isolates) stripped from the turns kept.
    """

    dropped_turns: int
    entries: list[EpisodeEntry]
    episode_id: str
    settled: bool
    hidden_characters: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dropped_turns = self.dropped_turns

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        episode_id = self.episode_id

        settled = self.settled

        hidden_characters = self.hidden_characters

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dropped_turns": dropped_turns,
                "entries": entries,
                "episode_id": episode_id,
                "settled": settled,
            }
        )
        if hidden_characters is not UNSET:
            field_dict["hidden_characters"] = hidden_characters

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.episode_entry import EpisodeEntry  # noqa: PLC0415

        d = dict(src_dict)
        dropped_turns = d.pop("dropped_turns")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = EpisodeEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        episode_id = d.pop("episode_id")

        settled = d.pop("settled")

        hidden_characters = d.pop("hidden_characters", UNSET)

        episode_posted = cls(
            dropped_turns=dropped_turns,
            entries=entries,
            episode_id=episode_id,
            settled=settled,
            hidden_characters=hidden_characters,
        )

        episode_posted.additional_properties = d
        return episode_posted

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
