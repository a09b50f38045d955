from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SearchHit")


@_attrs_define
class SearchHit:
    """One match, best first.

    Example:
        {'at': '2026-11-10T09:00:00Z', 'id': 'ses_01M72AZ1M0ETFB59TDWH9EDD1R', 'kind': 'session', 'rank': 0.1,
            'session_id': 'ses_01M72AZ1M0ETFB59TDWH9EDD1R', 'snippet': 'Get the [login] fix ready for review'}

    Attributes:
        at (datetime.datetime): When: the session's start, the call's time, or the digest period's first day.
        id (str): The id of what matched (`ses_…`, `call_…` or `dig_…`).
        kind (str): What matched: `session` (goal, outcome, hand-off or summary), `call` (its purpose) or `digest`.
        rank (float): The relevance (higher is better; comparable within one answer).
        snippet (str): The matching text, the matched words in `[brackets]`.
        session_id (None | str | Unset):
    """

    at: datetime.datetime
    id: str
    kind: str
    rank: float
    snippet: str
    session_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        id = self.id

        kind = self.kind

        rank = self.rank

        snippet = self.snippet

        session_id: None | str | Unset
        if isinstance(self.session_id, Unset):
            session_id = UNSET
        else:
            session_id = self.session_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "id": id,
                "kind": kind,
                "rank": rank,
                "snippet": snippet,
            }
        )
        if session_id is not UNSET:
            field_dict["session_id"] = session_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        id = d.pop("id")

        kind = d.pop("kind")

        rank = d.pop("rank")

        snippet = d.pop("snippet")

        def _parse_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_id = _parse_session_id(d.pop("session_id", UNSET))

        search_hit = cls(
            at=at,
            id=id,
            kind=kind,
            rank=rank,
            snippet=snippet,
            session_id=session_id,
        )

        search_hit.additional_properties = d
        return search_hit

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
