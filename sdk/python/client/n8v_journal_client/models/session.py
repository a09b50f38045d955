from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.decision_state import DecisionState
    from ..models.handoff import Handoff
    from ..models.provisional import Provisional
    from ..models.summary import Summary


T = TypeVar("T", bound="Session")


@_attrs_define
class Session:
    """One assistant conversation: its goal, the calls made in it, and what happened.

    Example:
        {'account_id': 'acc_01KYP3WV40FHEAD8X4A1JH69RE', 'assistant': 'Claude', 'call_count': 14, 'end_reason': 'ended',
            'ended_at': '2026-11-10T10:42:10Z', 'goal': 'Get the login fix ready for review', 'handoff': {'decisions':
            ['Keep the session cookie SameSite=Lax'], 'next_steps': [], 'open_questions': ['Should the old login route be
            removed?']}, 'id': 'ses_01M72AZ1M0ETFB59TDWH9EDD1R', 'key_id': 'key_01KZKXJDM0F4QS4FR84G98PBSK', 'kind':
            'explicit', 'last_activity_at': '2026-11-10T10:42:10Z', 'organization_id': None, 'outcome': 'Fix ready for
            review; tests passed', 'provisional': None, 'repository': 'acme/web', 'scopes': ['chats:read', 'records:read',
            'records:write'], 'started_at': '2026-11-10T09:00:00Z', 'status': 'closed', 'summary': {'decisions': ['Keep the
            session cookie SameSite=Lax'], 'open_questions': ['Should the old login route be removed?'], 'summary': 'Fixed
            the login redirect loop and got the fix ready for review.', 'work_finished': ['Fix ready for review; tests
            passed'], 'work_started': []}, 'summary_cost_usd': '0.00055', 'summary_input_tokens': 1000, 'summary_model':
            'gemini-3.1-flash-lite', 'summary_note': None, 'summary_output_tokens': 200, 'write_count': 3}

    Attributes:
        account_id (str): `acc_` followed by 26 Crockford base32 characters (a UUIDv7).
        assistant (str): The assistant making the calls: `X-Assistant`, else the `User-Agent`, else `unknown`.
        call_count (int): How many calls were recorded in the session. Exact, and cheap to read however long the
            session: calls are folded into a count on the session a minute at a time (by the calls
            themselves and by its close), and a read counts only those made since. A call still
            being committed more than 30 s after it started (past the default request timeout)
            could be left out.
        id (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
        key_id (str): `key_` followed by 26 Crockford base32 characters (a UUIDv7).
        kind (str): `explicit` (opened with a goal) or `implicit` (issued for calls made without a session).
        last_activity_at (datetime.datetime): When the last call was recorded in it.
        scopes (list[str]): The scopes the credential held; only credentials holding all of them can read this session.
        started_at (datetime.datetime): When the session was opened.
        status (str): `open` or `closed`.
        write_count (int): How many of those calls wrote (kept the same way as `call_count`).
        decisions (list[DecisionState] | Unset): The decisions this session opened or repeated that are items, each as
            it stands now
            (`current`, or `replaced` and by what): its hand-off's and its summary's decision lines
            say these in the session's words (compared as items are compared); a line not among them
            is no item. In the catch-up brief, the session list and a session's read; absent when
            none (and in the export, whose items carry their state themselves).
        end_reason (None | str | Unset): `ended` (closed by its assistant), `quiet` (closed by the sweep) or `retired`.
        ended_at (datetime.datetime | None | Unset): When the session was closed; absent while it is open (an episode's
            part is open while
            its conversation has not settled).
        goal (None | str | Unset): One sentence describing the goal of the conversation, given when it was opened.
        handoff (Handoff | None | Unset):
        organization_id (None | str | Unset):
        outcome (None | str | Unset): What happened: the handoff for the next conversation, given when it was closed.
        provisional (None | Provisional | Unset):
        repository (None | str | Unset): The repository the assistant worked in, if any.
        summary (None | Summary | Unset):
        summary_cost_usd (None | str | Unset): The estimated cost of the summary in US dollars: an exact decimal (as a
            string), summed
            over every model call the summary made; `0` for the proxy and for code.
        summary_input_tokens (int | None | Unset): Input tokens the summary's model calls used.
        summary_model (None | str | Unset): The model that wrote the summary: `gemini-…`, the proxy model, or `code` (a
            summary
            written by code, at zero model cost).
        summary_note (None | str | Unset): Why a code summary was written instead (e.g. the monthly budget is spent).
        summary_output_tokens (int | None | Unset): Output tokens the summary's model calls used.
    """

    account_id: str
    assistant: str
    call_count: int
    id: str
    key_id: str
    kind: str
    last_activity_at: datetime.datetime
    scopes: list[str]
    started_at: datetime.datetime
    status: str
    write_count: int
    decisions: list[DecisionState] | Unset = UNSET
    end_reason: None | str | Unset = UNSET
    ended_at: datetime.datetime | None | Unset = UNSET
    goal: None | str | Unset = UNSET
    handoff: Handoff | None | Unset = UNSET
    organization_id: None | str | Unset = UNSET
    outcome: None | str | Unset = UNSET
    provisional: None | Provisional | Unset = UNSET
    repository: None | str | Unset = UNSET
    summary: None | Summary | Unset = UNSET
    summary_cost_usd: None | str | Unset = UNSET
    summary_input_tokens: int | None | Unset = UNSET
    summary_model: None | str | Unset = UNSET
    summary_note: None | str | Unset = UNSET
    summary_output_tokens: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.handoff import Handoff  # noqa: PLC0415
        from ..models.provisional import Provisional  # noqa: PLC0415
        from ..models.summary import Summary  # noqa: PLC0415

        account_id = self.account_id

        assistant = self.assistant

        call_count = self.call_count

        id = self.id

        key_id = self.key_id

        kind = self.kind

        last_activity_at = self.last_activity_at.isoformat()

        scopes = self.scopes

        started_at = self.started_at.isoformat()

        status = self.status

        write_count = self.write_count

        decisions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.decisions, Unset):
            decisions = []
            for decisions_item_data in self.decisions:
                decisions_item = decisions_item_data.to_dict()
                decisions.append(decisions_item)

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
        elif isinstance(self.handoff, Handoff):
            handoff = self.handoff.to_dict()
        else:
            handoff = self.handoff

        organization_id: None | str | Unset
        if isinstance(self.organization_id, Unset):
            organization_id = UNSET
        else:
            organization_id = self.organization_id

        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        else:
            outcome = self.outcome

        provisional: dict[str, Any] | None | Unset
        if isinstance(self.provisional, Unset):
            provisional = UNSET
        elif isinstance(self.provisional, Provisional):
            provisional = self.provisional.to_dict()
        else:
            provisional = self.provisional

        repository: None | str | Unset
        if isinstance(self.repository, Unset):
            repository = UNSET
        else:
            repository = self.repository

        summary: dict[str, Any] | None | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        elif isinstance(self.summary, Summary):
            summary = self.summary.to_dict()
        else:
            summary = self.summary

        summary_cost_usd: None | str | Unset
        if isinstance(self.summary_cost_usd, Unset):
            summary_cost_usd = UNSET
        else:
            summary_cost_usd = self.summary_cost_usd

        summary_input_tokens: int | None | Unset
        if isinstance(self.summary_input_tokens, Unset):
            summary_input_tokens = UNSET
        else:
            summary_input_tokens = self.summary_input_tokens

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

        summary_output_tokens: int | None | Unset
        if isinstance(self.summary_output_tokens, Unset):
            summary_output_tokens = UNSET
        else:
            summary_output_tokens = self.summary_output_tokens

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "account_id": account_id,
                "assistant": assistant,
                "call_count": call_count,
                "id": id,
                "key_id": key_id,
                "kind": kind,
                "last_activity_at": last_activity_at,
                "scopes": scopes,
                "started_at": started_at,
                "status": status,
                "write_count": write_count,
            }
        )
        if decisions is not UNSET:
            field_dict["decisions"] = decisions
        if end_reason is not UNSET:
            field_dict["end_reason"] = end_reason
        if ended_at is not UNSET:
            field_dict["ended_at"] = ended_at
        if goal is not UNSET:
            field_dict["goal"] = goal
        if handoff is not UNSET:
            field_dict["handoff"] = handoff
        if organization_id is not UNSET:
            field_dict["organization_id"] = organization_id
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if provisional is not UNSET:
            field_dict["provisional"] = provisional
        if repository is not UNSET:
            field_dict["repository"] = repository
        if summary is not UNSET:
            field_dict["summary"] = summary
        if summary_cost_usd is not UNSET:
            field_dict["summary_cost_usd"] = summary_cost_usd
        if summary_input_tokens is not UNSET:
            field_dict["summary_input_tokens"] = summary_input_tokens
        if summary_model is not UNSET:
            field_dict["summary_model"] = summary_model
        if summary_note is not UNSET:
            field_dict["summary_note"] = summary_note
        if summary_output_tokens is not UNSET:
            field_dict["summary_output_tokens"] = summary_output_tokens

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision_state import DecisionState  # noqa: PLC0415
        from ..models.handoff import Handoff  # noqa: PLC0415
        from ..models.provisional import Provisional  # noqa: PLC0415
        from ..models.summary import Summary  # noqa: PLC0415

        d = dict(src_dict)
        account_id = d.pop("account_id")

        assistant = d.pop("assistant")

        call_count = d.pop("call_count")

        id = d.pop("id")

        key_id = d.pop("key_id")

        kind = d.pop("kind")

        last_activity_at = datetime.datetime.fromisoformat(d.pop("last_activity_at"))

        scopes = cast(list[str], d.pop("scopes"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        status = d.pop("status")

        write_count = d.pop("write_count")

        _decisions = d.pop("decisions", UNSET)
        decisions: list[DecisionState] | Unset = UNSET
        if _decisions is not UNSET:
            decisions = []
            for decisions_item_data in _decisions:
                decisions_item = DecisionState.from_dict(decisions_item_data)

                decisions.append(decisions_item)

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

        def _parse_handoff(data: object) -> Handoff | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                handoff_type_0 = Handoff.from_dict(data)

                return handoff_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Handoff | None | Unset, data)

        handoff = _parse_handoff(d.pop("handoff", UNSET))

        def _parse_organization_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization_id = _parse_organization_id(d.pop("organization_id", UNSET))

        def _parse_outcome(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))

        def _parse_provisional(data: object) -> None | Provisional | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                provisional_type_0 = Provisional.from_dict(data)

                return provisional_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Provisional | Unset, data)

        provisional = _parse_provisional(d.pop("provisional", UNSET))

        def _parse_repository(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        repository = _parse_repository(d.pop("repository", UNSET))

        def _parse_summary(data: object) -> None | Summary | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_0 = Summary.from_dict(data)

                return summary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Summary | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        def _parse_summary_cost_usd(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary_cost_usd = _parse_summary_cost_usd(d.pop("summary_cost_usd", UNSET))

        def _parse_summary_input_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        summary_input_tokens = _parse_summary_input_tokens(d.pop("summary_input_tokens", UNSET))

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

        def _parse_summary_output_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        summary_output_tokens = _parse_summary_output_tokens(d.pop("summary_output_tokens", UNSET))

        session = cls(
            account_id=account_id,
            assistant=assistant,
            call_count=call_count,
            id=id,
            key_id=key_id,
            kind=kind,
            last_activity_at=last_activity_at,
            scopes=scopes,
            started_at=started_at,
            status=status,
            write_count=write_count,
            decisions=decisions,
            end_reason=end_reason,
            ended_at=ended_at,
            goal=goal,
            handoff=handoff,
            organization_id=organization_id,
            outcome=outcome,
            provisional=provisional,
            repository=repository,
            summary=summary,
            summary_cost_usd=summary_cost_usd,
            summary_input_tokens=summary_input_tokens,
            summary_model=summary_model,
            summary_note=summary_note,
            summary_output_tokens=summary_output_tokens,
        )

        session.additional_properties = d
        return session

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
