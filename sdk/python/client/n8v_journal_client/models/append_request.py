from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AppendRequest")


@_attrs_define
class AppendRequest:
    """Puts a line on record (append-only).

    Attributes:
        line (str): The line to put on record: one line of text, 1 to 4,000 characters, no control
            characters; credentials in it are scrubbed.
    """

    line: str

    def to_dict(self) -> dict[str, Any]:
        line = self.line

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "line": line,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        line = d.pop("line")

        append_request = cls(
            line=line,
        )

        return append_request
