from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.summary import Summary


T = TypeVar("T", bound="SessionSummary")


@_attrs_define
class SessionSummary:
    """A session's stored summary, with what wrote it and what it cost.

    Attributes:
        at (datetime.datetime): When it was stored (an episode's, written with its session: when the session ended).
        session_id (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        summary (Summary): The entry stored for a session: a few sentences and the lists the catch-up brief shows.
        cost_usd (None | str | Unset): What it cost, in US dollars (an exact decimal).
        input_tokens (int | None | Unset):
        model (None | str | Unset): The model that wrote it, or `code`.
        note (None | str | Unset): Why a code summary was written instead, if it was.
        output_tokens (int | None | Unset):
    """

    at: datetime.datetime
    session_id: str
    summary: Summary
    cost_usd: None | str | Unset = UNSET
    input_tokens: int | None | Unset = UNSET
    model: None | str | Unset = UNSET
    note: None | str | Unset = UNSET
    output_tokens: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        session_id = self.session_id

        summary = self.summary.to_dict()

        cost_usd: None | str | Unset
        if isinstance(self.cost_usd, Unset):
            cost_usd = UNSET
        else:
            cost_usd = self.cost_usd

        input_tokens: int | None | Unset
        if isinstance(self.input_tokens, Unset):
            input_tokens = UNSET
        else:
            input_tokens = self.input_tokens

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        output_tokens: int | None | Unset
        if isinstance(self.output_tokens, Unset):
            output_tokens = UNSET
        else:
            output_tokens = self.output_tokens

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "session_id": session_id,
                "summary": summary,
            }
        )
        if cost_usd is not UNSET:
            field_dict["cost_usd"] = cost_usd
        if input_tokens is not UNSET:
            field_dict["input_tokens"] = input_tokens
        if model is not UNSET:
            field_dict["model"] = model
        if note is not UNSET:
            field_dict["note"] = note
        if output_tokens is not UNSET:
            field_dict["output_tokens"] = output_tokens

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.summary import Summary  # noqa: PLC0415

        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        session_id = d.pop("session_id")

        summary = Summary.from_dict(d.pop("summary"))

        def _parse_cost_usd(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cost_usd = _parse_cost_usd(d.pop("cost_usd", UNSET))

        def _parse_input_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        input_tokens = _parse_input_tokens(d.pop("input_tokens", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        def _parse_output_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        output_tokens = _parse_output_tokens(d.pop("output_tokens", UNSET))

        session_summary = cls(
            at=at,
            session_id=session_id,
            summary=summary,
            cost_usd=cost_usd,
            input_tokens=input_tokens,
            model=model,
            note=note,
            output_tokens=output_tokens,
        )

        session_summary.additional_properties = d
        return session_summary

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
