from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.decision_state import DecisionState
    from ..models.summary import Summary


T = TypeVar("T", bound="ListedDigest")


@_attrs_define
class ListedDigest:
    """A digest as it is listed: as stored, and how its decisions stand now.

    Attributes:
        cost_usd (str): What it cost, in US dollars (an exact decimal).
        created_at (datetime.datetime): When it was made.
        id (str): `dig_` followed by 26 Crockford base32 characters (a UUIDv7).
        model (str): The model that wrote it, or `code`.
        period (str): `week` or `month`.
        period_end (datetime.date): The day after the period's last day.
        period_start (datetime.date): The first day of the period (a Monday for weeks).
        session_count (int): How many sessions the period held.
        summary (Summary): The entry stored for a session: a few sentences and the lists the catch-up brief shows.
        decisions (list[DecisionState] | Unset): The decisions of `summary.decisions` that are items the digest holds,
            each as it stands
            now (`current`, or `replaced` and by what, named when this credential can read it): a
            digest's text is kept as it was written, so a decision replaced since is said here.
            Absent when none is an item (a model's own words, decisions gone with their sessions).
    """

    cost_usd: str
    created_at: datetime.datetime
    id: str
    model: str
    period: str
    period_end: datetime.date
    period_start: datetime.date
    session_count: int
    summary: Summary
    decisions: list[DecisionState] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cost_usd = self.cost_usd

        created_at = self.created_at.isoformat()

        id = self.id

        model = self.model

        period = self.period

        period_end = self.period_end.isoformat()

        period_start = self.period_start.isoformat()

        session_count = self.session_count

        summary = self.summary.to_dict()

        decisions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.decisions, Unset):
            decisions = []
            for decisions_item_data in self.decisions:
                decisions_item = decisions_item_data.to_dict()
                decisions.append(decisions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cost_usd": cost_usd,
                "created_at": created_at,
                "id": id,
                "model": model,
                "period": period,
                "period_end": period_end,
                "period_start": period_start,
                "session_count": session_count,
                "summary": summary,
            }
        )
        if decisions is not UNSET:
            field_dict["decisions"] = decisions

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision_state import DecisionState  # noqa: PLC0415
        from ..models.summary import Summary  # noqa: PLC0415

        d = dict(src_dict)
        cost_usd = d.pop("cost_usd")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        model = d.pop("model")

        period = d.pop("period")

        period_end = datetime.date.fromisoformat(d.pop("period_end"))

        period_start = datetime.date.fromisoformat(d.pop("period_start"))

        session_count = d.pop("session_count")

        summary = Summary.from_dict(d.pop("summary"))

        _decisions = d.pop("decisions", UNSET)
        decisions: list[DecisionState] | Unset = UNSET
        if _decisions is not UNSET:
            decisions = []
            for decisions_item_data in _decisions:
                decisions_item = DecisionState.from_dict(decisions_item_data)

                decisions.append(decisions_item)

        listed_digest = cls(
            cost_usd=cost_usd,
            created_at=created_at,
            id=id,
            model=model,
            period=period,
            period_end=period_end,
            period_start=period_start,
            session_count=session_count,
            summary=summary,
            decisions=decisions,
        )

        listed_digest.additional_properties = d
        return listed_digest

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
