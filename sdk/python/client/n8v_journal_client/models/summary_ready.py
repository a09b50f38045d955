from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.summary_ready_summary_type_0 import SummaryReadySummaryType0


T = TypeVar("T", bound="SummaryReady")


@_attrs_define
class SummaryReady:
    """`summary.ready`: a closed session's summary was stored.

    Attributes:
        session (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        snapshot (int | None | Unset): The session's call count the summary describes.
        summary (None | SummaryReadySummaryType0 | Unset):
        summary_model (None | str | Unset):
        summary_note (None | str | Unset):
    """

    session: str
    snapshot: int | None | Unset = UNSET
    summary: None | SummaryReadySummaryType0 | Unset = UNSET
    summary_model: None | str | Unset = UNSET
    summary_note: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.summary_ready_summary_type_0 import SummaryReadySummaryType0  # noqa: PLC0415

        session = self.session

        snapshot: int | None | Unset
        if isinstance(self.snapshot, Unset):
            snapshot = UNSET
        else:
            snapshot = self.snapshot

        summary: dict[str, Any] | None | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        elif isinstance(self.summary, SummaryReadySummaryType0):
            summary = self.summary.to_dict()
        else:
            summary = self.summary

        summary_model: None | str | Unset
        if isinstance(self.summary_model, Unset):
            summary_model = UNSET
        else:
            summary_model = self.summary_model

        summary_note: None | str | Unset
        if isinstance(self.summary_note, Unset):
            summary_note = UNSET
        else:
            summary_note = self.summary_note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "session": session,
            }
        )
        if snapshot is not UNSET:
            field_dict["snapshot"] = snapshot
        if summary is not UNSET:
            field_dict["summary"] = summary
        if summary_model is not UNSET:
            field_dict["summary_model"] = summary_model
        if summary_note is not UNSET:
            field_dict["summary_note"] = summary_note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.summary_ready_summary_type_0 import SummaryReadySummaryType0  # noqa: PLC0415

        d = dict(src_dict)
        session = d.pop("session")

        def _parse_snapshot(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        snapshot = _parse_snapshot(d.pop("snapshot", UNSET))

        def _parse_summary(data: object) -> None | SummaryReadySummaryType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_0 = SummaryReadySummaryType0.from_dict(data)

                return summary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SummaryReadySummaryType0 | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        def _parse_summary_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary_model = _parse_summary_model(d.pop("summary_model", UNSET))

        def _parse_summary_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary_note = _parse_summary_note(d.pop("summary_note", UNSET))

        summary_ready = cls(
            session=session,
            snapshot=snapshot,
            summary=summary,
            summary_model=summary_model,
            summary_note=summary_note,
        )

        summary_ready.additional_properties = d
        return summary_ready

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
