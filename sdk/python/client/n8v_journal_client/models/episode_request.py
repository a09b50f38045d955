from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.episode_turn import EpisodeTurn


T = TypeVar("T", bound="EpisodeRequest")


@_attrs_define
class EpisodeRequest:
    """A conversation as far as it went, as a harness saw it.

    Attributes:
        ended_at (datetime.datetime): When its last turn was (RFC 3339; the settle rule reads it: send the last turn's
            time,
            not now).
        episode_id (str): The harness's own id for the conversation (letters, digits, `. _ : -`, up to 200).
            Posting the same turns of an episode again changes nothing; posting it grown updates
            its entries.
        harness (str): The harness: `claude-code`, `codex`, …
        started_at (datetime.datetime): When the conversation started (RFC 3339).
        turns (list[EpisodeTurn]): The turns, in order (at most 10,000): the whole conversation so far, also when it is
            posted again as it grows.
        ended (bool | Unset): The harness says the conversation ended (its `SessionEnd` hook): its parts are drafted
            now rather than once it has been quiet for `N8V_EPISODE_SETTLE_MINUTES`. Default: False.
        project (None | str | Unset): The project or repository, if any.
    """

    ended_at: datetime.datetime
    episode_id: str
    harness: str
    started_at: datetime.datetime
    turns: list[EpisodeTurn]
    ended: bool | Unset = False
    project: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        ended_at = self.ended_at.isoformat()

        episode_id = self.episode_id

        harness = self.harness

        started_at = self.started_at.isoformat()

        turns = []
        for turns_item_data in self.turns:
            turns_item = turns_item_data.to_dict()
            turns.append(turns_item)

        ended = self.ended

        project: None | str | Unset
        if isinstance(self.project, Unset):
            project = UNSET
        else:
            project = self.project

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ended_at": ended_at,
                "episode_id": episode_id,
                "harness": harness,
                "started_at": started_at,
                "turns": turns,
            }
        )
        if ended is not UNSET:
            field_dict["ended"] = ended
        if project is not UNSET:
            field_dict["project"] = project

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.episode_turn import EpisodeTurn  # noqa: PLC0415

        d = dict(src_dict)
        ended_at = datetime.datetime.fromisoformat(d.pop("ended_at"))

        episode_id = d.pop("episode_id")

        harness = d.pop("harness")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        turns = []
        _turns = d.pop("turns")
        for turns_item_data in _turns:
            turns_item = EpisodeTurn.from_dict(turns_item_data)

            turns.append(turns_item)

        ended = d.pop("ended", UNSET)

        def _parse_project(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        project = _parse_project(d.pop("project", UNSET))

        episode_request = cls(
            ended_at=ended_at,
            episode_id=episode_id,
            harness=harness,
            started_at=started_at,
            turns=turns,
            ended=ended,
            project=project,
        )

        return episode_request
