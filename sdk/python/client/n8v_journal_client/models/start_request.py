from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="StartRequest")


@_attrs_define
class StartRequest:
    """A conversation to open; every field is optional.

    Attributes:
        goal (None | str | Unset): One sentence describing the goal of the conversation (up to 2,000 characters;
            credentials in it are scrubbed). Optional, but give it: the next conversation's brief and
            the journal show sessions by their goal.
        organization (None | str | Unset): The organization the work is for (`org_…`), if any; must be one the account
            belongs to.
        repository (None | str | Unset): The repository the assistant works in, if any (a repository-restricted key's
            own wins):
            letters, digits and `. _ - / : @ +`, up to 200 characters (empty: none).
    """

    goal: None | str | Unset = UNSET
    organization: None | str | Unset = UNSET
    repository: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        organization: None | str | Unset
        if isinstance(self.organization, Unset):
            organization = UNSET
        else:
            organization = self.organization

        repository: None | str | Unset
        if isinstance(self.repository, Unset):
            repository = UNSET
        else:
            repository = self.repository

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if goal is not UNSET:
            field_dict["goal"] = goal
        if organization is not UNSET:
            field_dict["organization"] = organization
        if repository is not UNSET:
            field_dict["repository"] = repository

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))

        def _parse_organization(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization = _parse_organization(d.pop("organization", UNSET))

        def _parse_repository(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        repository = _parse_repository(d.pop("repository", UNSET))

        start_request = cls(
            goal=goal,
            organization=organization,
            repository=repository,
        )

        return start_request
