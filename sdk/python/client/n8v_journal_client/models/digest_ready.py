from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.digest_ready_summary import DigestReadySummary


T = TypeVar("T", bound="DigestReady")


@_attrs_define
class DigestReady:
    """`digest.ready`: a week's or month's digest was stored.

    Attributes:
        digest (str): `dig_` followed by 26 Crockford base32 characters (a UUIDv7).
        model (str):
        period (str): `week` or `month`.
        period_end (datetime.date):
        period_start (datetime.date):
        session_count (int):
        summary (DigestReadySummary):
    """

    digest: str
    model: str
    period: str
    period_end: datetime.date
    period_start: datetime.date
    session_count: int
    summary: DigestReadySummary
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        digest = self.digest

        model = self.model

        period = self.period

        period_end = self.period_end.isoformat()

        period_start = self.period_start.isoformat()

        session_count = self.session_count

        summary = self.summary.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "digest": digest,
                "model": model,
                "period": period,
                "period_end": period_end,
                "period_start": period_start,
                "session_count": session_count,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.digest_ready_summary import DigestReadySummary  # noqa: PLC0415

        d = dict(src_dict)
        digest = d.pop("digest")

        model = d.pop("model")

        period = d.pop("period")

        period_end = datetime.date.fromisoformat(d.pop("period_end"))

        period_start = datetime.date.fromisoformat(d.pop("period_start"))

        session_count = d.pop("session_count")

        summary = DigestReadySummary.from_dict(d.pop("summary"))

        digest_ready = cls(
            digest=digest,
            model=model,
            period=period,
            period_end=period_end,
            period_start=period_start,
            session_count=session_count,
            summary=summary,
        )

        digest_ready.additional_properties = d
        return digest_ready

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
