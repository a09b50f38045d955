from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.call import Call
    from ..models.session import Session
    from ..models.told import Told


T = TypeVar("T", bound="SessionDetail")


@_attrs_define
class SessionDetail:
    """A session and a page of its actions.

    Attributes:
        actions (list[Call]): The session's calls, oldest first.
        session (Session): One assistant conversation: its goal, the calls made in it, and what happened. Example:
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
            'gemini-3.1-flash-lite', 'summary_note': None, 'summary_output_tokens': 200, 'write_count': 3}.
        told (list[Told]): What this conversation was told: each catch-up brief and `/journal.md` read in it
            (REST, MCP, the resources), oldest first (at most 20), with the sessions and items it
            handed over and how many characters.
        next_cursor (None | str | Unset): Pass it as `cursor` for the next page of actions; absent on the last page.
    """

    actions: list[Call]
    session: Session
    told: list[Told]
    next_cursor: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actions = []
        for actions_item_data in self.actions:
            actions_item = actions_item_data.to_dict()
            actions.append(actions_item)

        session = self.session.to_dict()

        told = []
        for told_item_data in self.told:
            told_item = told_item_data.to_dict()
            told.append(told_item)

        next_cursor: None | str | Unset
        if isinstance(self.next_cursor, Unset):
            next_cursor = UNSET
        else:
            next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actions": actions,
                "session": session,
                "told": told,
            }
        )
        if next_cursor is not UNSET:
            field_dict["next_cursor"] = next_cursor

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.call import Call  # noqa: PLC0415
        from ..models.session import Session  # noqa: PLC0415
        from ..models.told import Told  # noqa: PLC0415

        d = dict(src_dict)
        actions = []
        _actions = d.pop("actions")
        for actions_item_data in _actions:
            actions_item = Call.from_dict(actions_item_data)

            actions.append(actions_item)

        session = Session.from_dict(d.pop("session"))

        told = []
        _told = d.pop("told")
        for told_item_data in _told:
            told_item = Told.from_dict(told_item_data)

            told.append(told_item)

        def _parse_next_cursor(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor", UNSET))

        session_detail = cls(
            actions=actions,
            session=session,
            told=told,
            next_cursor=next_cursor,
        )

        session_detail.additional_properties = d
        return session_detail

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
