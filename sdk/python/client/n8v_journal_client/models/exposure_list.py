from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.exposure import Exposure


T = TypeVar("T", bound="ExposureList")


@_attrs_define
class ExposureList:
    """The credentials scrubbed from the journal's text, most recently scrubbed first.

    Attributes:
        exposures (list[Exposure]): At most 100, most recently scrubbed first.
    """

    exposures: list[Exposure]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        exposures = []
        for exposures_item_data in self.exposures:
            exposures_item = exposures_item_data.to_dict()
            exposures.append(exposures_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "exposures": exposures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.exposure import Exposure  # noqa: PLC0415

        d = dict(src_dict)
        exposures = []
        _exposures = d.pop("exposures")
        for exposures_item_data in _exposures:
            exposures_item = Exposure.from_dict(exposures_item_data)

            exposures.append(exposures_item)

        exposure_list = cls(
            exposures=exposures,
        )

        exposure_list.additional_properties = d
        return exposure_list

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
