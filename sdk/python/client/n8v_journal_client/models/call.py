from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Call")


@_attrs_define
class Call:
    """One call made in a session: what, why, on what, how it went, and the shape of its input.
    Never the payloads: no message bodies, transcripts or returned data.

        Example:
            {'at': '2026-11-10T09:02:05Z', 'audit_id': 'aud_01M72B2VP8E7KTHRJXJG7DJ13N', 'audit_url':
                '/api/v1/audit/aud_01M72B2VP8E7KTHRJXJG7DJ13N', 'duration_ms': 12, 'id': 'call_01M72B2VP8EMRSV7E9Z0C1HT0H',
                'input_shape': {'query': {'limit': 'string'}}, 'journal_read': False, 'operation': 'listRecordEntries',
                'organization_id': None, 'outcome': 'ok', 'purpose': 'Pick up where we stopped', 'result_count': 1,
                'result_ids': ['ent_01M72ECX80E7HAP3AMKDQG6STT'], 'session_id': 'ses_01M72AZ1M0ETFB59TDWH9EDD1R', 'status': 200,
                'target_ids': ['rec_01KYP3WV40ER08K6AGV0VFCXEC'], 'wrote': False}

        Attributes:
            at (datetime.datetime): When the call was made.
            duration_ms (int): How long the operation took, in milliseconds.
            id (str): `call_` followed by 26 Crockford base32 characters (a UUIDv7).
            journal_read (bool): Whether the call was the journal's own traffic: it read the journal, or posted work done
                elsewhere (an episode, whose entries are sessions of their own). A session holding only
                such calls stays out of the session list.
            operation (str): The operation called (its OpenAPI operation id, e.g. `appendRecordEntry`).
            outcome (str): `ok` or `error`.
            result_ids (list[str]): The IDs the call returned or created.
            session_id (str): `ses_` followed by 26 Crockford base32 characters (a UUIDv7).
            status (int): The HTTP status of the answer.
            target_ids (list[str]): The IDs the call acted on (path parameters), credentials scrubbed.
            wrote (bool): Whether the call changed anything.
            audit_id (None | str | Unset):
            audit_url (None | str | Unset): Where the audit entry written for the same request can be read.
            input_shape (Any | Unset): The shape of the input: query and body keys with the types of their values, never the
                values.
            organization_id (None | str | Unset):
            purpose (None | str | Unset): Why the call was made (`X-Purpose`), credentials scrubbed.
            result_count (int | None | Unset): How many items a listing returned.
    """

    at: datetime.datetime
    duration_ms: int
    id: str
    journal_read: bool
    operation: str
    outcome: str
    result_ids: list[str]
    session_id: str
    status: int
    target_ids: list[str]
    wrote: bool
    audit_id: None | str | Unset = UNSET
    audit_url: None | str | Unset = UNSET
    input_shape: Any | Unset = UNSET
    organization_id: None | str | Unset = UNSET
    purpose: None | str | Unset = UNSET
    result_count: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        duration_ms = self.duration_ms

        id = self.id

        journal_read = self.journal_read

        operation = self.operation

        outcome = self.outcome

        result_ids = self.result_ids

        session_id = self.session_id

        status = self.status

        target_ids = self.target_ids

        wrote = self.wrote

        audit_id: None | str | Unset
        if isinstance(self.audit_id, Unset):
            audit_id = UNSET
        else:
            audit_id = self.audit_id

        audit_url: None | str | Unset
        if isinstance(self.audit_url, Unset):
            audit_url = UNSET
        else:
            audit_url = self.audit_url

        input_shape = self.input_shape

        organization_id: None | str | Unset
        if isinstance(self.organization_id, Unset):
            organization_id = UNSET
        else:
            organization_id = self.organization_id

        purpose: None | str | Unset
        if isinstance(self.purpose, Unset):
            purpose = UNSET
        else:
            purpose = self.purpose

        result_count: int | None | Unset
        if isinstance(self.result_count, Unset):
            result_count = UNSET
        else:
            result_count = self.result_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "duration_ms": duration_ms,
                "id": id,
                "journal_read": journal_read,
                "operation": operation,
                "outcome": outcome,
                "result_ids": result_ids,
                "session_id": session_id,
                "status": status,
                "target_ids": target_ids,
                "wrote": wrote,
            }
        )
        if audit_id is not UNSET:
            field_dict["audit_id"] = audit_id
        if audit_url is not UNSET:
            field_dict["audit_url"] = audit_url
        if input_shape is not UNSET:
            field_dict["input_shape"] = input_shape
        if organization_id is not UNSET:
            field_dict["organization_id"] = organization_id
        if purpose is not UNSET:
            field_dict["purpose"] = purpose
        if result_count is not UNSET:
            field_dict["result_count"] = result_count

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        duration_ms = d.pop("duration_ms")

        id = d.pop("id")

        journal_read = d.pop("journal_read")

        operation = d.pop("operation")

        outcome = d.pop("outcome")

        result_ids = cast(list[str], d.pop("result_ids"))

        session_id = d.pop("session_id")

        status = d.pop("status")

        target_ids = cast(list[str], d.pop("target_ids"))

        wrote = d.pop("wrote")

        def _parse_audit_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        audit_id = _parse_audit_id(d.pop("audit_id", UNSET))

        def _parse_audit_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        audit_url = _parse_audit_url(d.pop("audit_url", UNSET))

        input_shape = d.pop("input_shape", UNSET)

        def _parse_organization_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization_id = _parse_organization_id(d.pop("organization_id", UNSET))

        def _parse_purpose(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        purpose = _parse_purpose(d.pop("purpose", UNSET))

        def _parse_result_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        result_count = _parse_result_count(d.pop("result_count", UNSET))

        call = cls(
            at=at,
            duration_ms=duration_ms,
            id=id,
            journal_read=journal_read,
            operation=operation,
            outcome=outcome,
            result_ids=result_ids,
            session_id=session_id,
            status=status,
            target_ids=target_ids,
            wrote=wrote,
            audit_id=audit_id,
            audit_url=audit_url,
            input_shape=input_shape,
            organization_id=organization_id,
            purpose=purpose,
            result_count=result_count,
        )

        call.additional_properties = d
        return call

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
