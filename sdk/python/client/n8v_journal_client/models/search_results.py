from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.search_hit import SearchHit


T = TypeVar("T", bound="SearchResults")


@_attrs_define
class SearchResults:
    """The matches, best first.

    Attributes:
        from_ (datetime.datetime): The earliest time searched (a year ago unless `from` was given).
        hits (list[SearchHit]): The matches, most relevant first (newest first among equals).
        query (str): The query as searched.
    """

    from_: datetime.datetime
    hits: list[SearchHit]
    query: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        hits = []
        for hits_item_data in self.hits:
            hits_item = hits_item_data.to_dict()
            hits.append(hits_item)

        query = self.query

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "hits": hits,
                "query": query,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.search_hit import SearchHit  # noqa: PLC0415

        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))

        hits = []
        _hits = d.pop("hits")
        for hits_item_data in _hits:
            hits_item = SearchHit.from_dict(hits_item_data)

            hits.append(hits_item)

        query = d.pop("query")

        search_results = cls(
            from_=from_,
            hits=hits,
            query=query,
        )

        search_results.additional_properties = d
        return search_results

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
