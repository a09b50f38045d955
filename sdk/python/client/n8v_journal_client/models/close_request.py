from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CloseRequest")


@_attrs_define
class CloseRequest:
    """Closes one item as `done`, `answered` or `dropped`, in the session the call is recorded in.

    Attributes:
        state (str): `done` (a next step that was done), `answered` (a question that was answered) or
            `dropped` (no longer worth doing or asking).
    """

    state: str

    def to_dict(self) -> dict[str, Any]:
        state = self.state

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        state = d.pop("state")

        close_request = cls(
            state=state,
        )

        return close_request
