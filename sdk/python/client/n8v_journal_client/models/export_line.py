from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.export_type import ExportType

T = TypeVar("T", bound="ExportLine")


@_attrs_define
class ExportLine:
    """One NDJSON line of the export: a JSON object whose `type` says what the rest of it is: a
    `Session` (`session`), a `Call` (`call`), a `SessionSummary` (`summary`) or a `Digest`
    (`digest`), each with the fields the API answers with for it elsewhere.

        Example:
            {'id': 'call_01M72B2VP8EMRSV7E9Z0C1HT0H', 'operation': 'appendRecordEntry', 'session_id':
                'ses_01M72AZ1M0ETFB59TDWH9EDD1R', 'type': 'call'}

        Attributes:
            type_ (ExportType): The kinds of line in the export (`loop` will join them with open loops).
    """

    type_: ExportType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = ExportType(d.pop("type"))

        export_line = cls(
            type_=type_,
        )

        export_line.additional_properties = d
        return export_line

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
