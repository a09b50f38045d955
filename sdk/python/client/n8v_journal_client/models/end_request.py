from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EndRequest")


@_attrs_define
class EndRequest:
    """How a conversation ended.

    Example:
        {'outcome': 'Fix ready for review; tests passed'}

    Attributes:
        outcome (None | str | Unset): What happened: the handoff for the next conversation (up to 2,000 characters;
            credentials in it are scrubbed).
    """

    outcome: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        else:
            outcome = self.outcome

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_outcome(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))

        end_request = cls(
            outcome=outcome,
        )

        return end_request
