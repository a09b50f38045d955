from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReplaceRequest")


@_attrs_define
class ReplaceRequest:
    """Replaces one decision by a later, current one, in the session the call is recorded in.

    Attributes:
        by (str): The decision that replaces it (`itm_…`): a current decision this credential can read.
    """

    by: str

    def to_dict(self) -> dict[str, Any]:
        by = self.by

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "by": by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        by = d.pop("by")

        replace_request = cls(
            by=by,
        )

        return replace_request
