from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.listed_digest import ListedDigest


T = TypeVar("T", bound="DigestList")


@_attrs_define
class DigestList:
    """Week and month digests, newest first.

    Attributes:
        digests (list[ListedDigest]): The digests, newest period first.
    """

    digests: list[ListedDigest]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        digests = []
        for digests_item_data in self.digests:
            digests_item = digests_item_data.to_dict()
            digests.append(digests_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "digests": digests,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.listed_digest import ListedDigest  # noqa: PLC0415

        d = dict(src_dict)
        digests = []
        _digests = d.pop("digests")
        for digests_item_data in _digests:
            digests_item = ListedDigest.from_dict(digests_item_data)

            digests.append(digests_item)

        digest_list = cls(
            digests=digests,
        )

        digest_list.additional_properties = d
        return digest_list

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
