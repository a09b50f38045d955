from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_ended_handoff_type_0 import SessionEndedHandoffType0


T = TypeVar("T", bound="SessionEnded")


@_attrs_define
class SessionEnded:
    """`session.ended`: a session closed.

    Attributes:
        assistant (str):
        call_count (int):
        journal_only (bool):
        kind (str): `explicit` or `implicit`.
        session (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        started_at (datetime.datetime):
        summary_state (str): `pending`: a `summary.ready` event follows when the summary is stored; `written`: an
            episode's part settled and its entry (its summary) is written already.
        write_count (int):
        end_reason (None | str | Unset): `ended`, `quiet` (swept after two quiet hours) or `retired` (an implicit
            session
            replaced by a new one).
        ended_at (datetime.datetime | None | Unset):
        goal (None | str | Unset):
        handoff (None | SessionEndedHandoffType0 | Unset): The hand-off the assistant gave at the end (decisions, open
            questions, next steps).
        organization (None | str | Unset):
        outcome (None | str | Unset):
    """

    assistant: str
    call_count: int
    journal_only: bool
    kind: str
    session: str
    started_at: datetime.datetime
    summary_state: str
    write_count: int
    end_reason: None | str | Unset = UNSET
    ended_at: datetime.datetime | None | Unset = UNSET
    goal: None | str | Unset = UNSET
    handoff: None | SessionEndedHandoffType0 | Unset = UNSET
    organization: None | str | Unset = UNSET
    outcome: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.session_ended_handoff_type_0 import SessionEndedHandoffType0  # noqa: PLC0415

        assistant = self.assistant

        call_count = self.call_count

        journal_only = self.journal_only

        kind = self.kind

        session = self.session

        started_at = self.started_at.isoformat()

        summary_state = self.summary_state

        write_count = self.write_count

        end_reason: None | str | Unset
        if isinstance(self.end_reason, Unset):
            end_reason = UNSET
        else:
            end_reason = self.end_reason

        ended_at: None | str | Unset
        if isinstance(self.ended_at, Unset):
            ended_at = UNSET
        elif isinstance(self.ended_at, datetime.datetime):
            ended_at = self.ended_at.isoformat()
        else:
            ended_at = self.ended_at

        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        handoff: dict[str, Any] | None | Unset
        if isinstance(self.handoff, Unset):
            handoff = UNSET
        elif isinstance(self.handoff, SessionEndedHandoffType0):
            handoff = self.handoff.to_dict()
        else:
            handoff = self.handoff

        organization: None | str | Unset
        if isinstance(self.organization, Unset):
            organization = UNSET
        else:
            organization = self.organization

        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        else:
            outcome = self.outcome

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "assistant": assistant,
                "call_count": call_count,
                "journal_only": journal_only,
                "kind": kind,
                "session": session,
                "started_at": started_at,
                "summary_state": summary_state,
                "write_count": write_count,
            }
        )
        if end_reason is not UNSET:
            field_dict["end_reason"] = end_reason
        if ended_at is not UNSET:
            field_dict["ended_at"] = ended_at
        if goal is not UNSET:
            field_dict["goal"] = goal
        if handoff is not UNSET:
            field_dict["handoff"] = handoff
        if organization is not UNSET:
            field_dict["organization"] = organization
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session_ended_handoff_type_0 import SessionEndedHandoffType0  # noqa: PLC0415

        d = dict(src_dict)
        assistant = d.pop("assistant")

        call_count = d.pop("call_count")

        journal_only = d.pop("journal_only")

        kind = d.pop("kind")

        session = d.pop("session")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        summary_state = d.pop("summary_state")

        write_count = d.pop("write_count")

        def _parse_end_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_reason = _parse_end_reason(d.pop("end_reason", UNSET))

        def _parse_ended_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ended_at_type_0 = datetime.datetime.fromisoformat(data)

                return ended_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        ended_at = _parse_ended_at(d.pop("ended_at", UNSET))

        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))

        def _parse_handoff(data: object) -> None | SessionEndedHandoffType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                handoff_type_0 = SessionEndedHandoffType0.from_dict(data)

                return handoff_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionEndedHandoffType0 | Unset, data)

        handoff = _parse_handoff(d.pop("handoff", UNSET))

        def _parse_organization(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization = _parse_organization(d.pop("organization", UNSET))

        def _parse_outcome(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))

        session_ended = cls(
            assistant=assistant,
            call_count=call_count,
            journal_only=journal_only,
            kind=kind,
            session=session,
            started_at=started_at,
            summary_state=summary_state,
            write_count=write_count,
            end_reason=end_reason,
            ended_at=ended_at,
            goal=goal,
            handoff=handoff,
            organization=organization,
            outcome=outcome,
        )

        session_ended.additional_properties = d
        return session_ended

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
