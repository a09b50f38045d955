from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scrubbed_from import ScrubbedFrom


T = TypeVar("T", bound="Exposure")


@_attrs_define
class Exposure:
    """A credential scrubbed from the journal's text: which rule found it, how often, where and
    since when, as far as the caller can read the sessions it was seen in. Never the credential.

        Example:
            {'acknowledged': False, 'acknowledged_at': None, 'count': 3, 'first_seen': '2026-12-01T09:30:00Z', 'id':
                'exp_01M72AZ1M0ETFB59TDWH9EDD1R', 'label': 'a GitHub token', 'last_seen': '2026-12-03T16:02:00Z', 'rule':
                'github-pat', 'scrubbed_from': {'goals': 0, 'handoff_items': 0, 'outcomes': 0, 'purposes': 3, 'targets': 0},
                'sessions': ['ses_01M72AZ1M0ETFB59TDWH9EDD1R'], 'warning': 'A GitHub token was scrubbed from 3 purposes since 1
                December: rotate it.'}

        Attributes:
            acknowledged (bool): True when every sighting the caller reads was acknowledged after it was last scrubbed
                there; the brief, `/journal.md` and the journal page warn only of the others.
            count (int): How many texts it was scrubbed from (a text holding it twice counts once).
            first_seen (datetime.datetime): When it was first scrubbed.
            id (str): `exp_` followed by 26 Crockford base32 characters (a UUIDv7).
            label (str): What the rule finds, in words (`a GitHub token`).
            last_seen (datetime.datetime): When it was last scrubbed.
            rule (str): The scrubbing rule that found the credential (`github-pat`, `aws-access-key`, …).
            scrubbed_from (ScrubbedFrom): How many of an exposure's sightings each kind of text holds.
            sessions (list[str]): The sessions it was scrubbed in, most recent first (at most 20).
            warning (str): The warning, in words: what, from what, since when, and what to do ("rotate it"; once
                `acknowledged`, when it was acknowledged as rotated instead).
            acknowledged_at (datetime.datetime | None | Unset): When the caller last acknowledged it (of the sightings it
                reads), if ever.
    """

    acknowledged: bool
    count: int
    first_seen: datetime.datetime
    id: str
    label: str
    last_seen: datetime.datetime
    rule: str
    scrubbed_from: ScrubbedFrom
    sessions: list[str]
    warning: str
    acknowledged_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        acknowledged = self.acknowledged

        count = self.count

        first_seen = self.first_seen.isoformat()

        id = self.id

        label = self.label

        last_seen = self.last_seen.isoformat()

        rule = self.rule

        scrubbed_from = self.scrubbed_from.to_dict()

        sessions = self.sessions

        warning = self.warning

        acknowledged_at: None | str | Unset
        if isinstance(self.acknowledged_at, Unset):
            acknowledged_at = UNSET
        elif isinstance(self.acknowledged_at, datetime.datetime):
            acknowledged_at = self.acknowledged_at.isoformat()
        else:
            acknowledged_at = self.acknowledged_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "acknowledged": acknowledged,
                "count": count,
                "first_seen": first_seen,
                "id": id,
                "label": label,
                "last_seen": last_seen,
                "rule": rule,
                "scrubbed_from": scrubbed_from,
                "sessions": sessions,
                "warning": warning,
            }
        )
        if acknowledged_at is not UNSET:
            field_dict["acknowledged_at"] = acknowledged_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.scrubbed_from import ScrubbedFrom  # noqa: PLC0415

        d = dict(src_dict)
        acknowledged = d.pop("acknowledged")

        count = d.pop("count")

        first_seen = datetime.datetime.fromisoformat(d.pop("first_seen"))

        id = d.pop("id")

        label = d.pop("label")

        last_seen = datetime.datetime.fromisoformat(d.pop("last_seen"))

        rule = d.pop("rule")

        scrubbed_from = ScrubbedFrom.from_dict(d.pop("scrubbed_from"))

        sessions = cast(list[str], d.pop("sessions"))

        warning = d.pop("warning")

        def _parse_acknowledged_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                acknowledged_at_type_0 = datetime.datetime.fromisoformat(data)

                return acknowledged_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        acknowledged_at = _parse_acknowledged_at(d.pop("acknowledged_at", UNSET))

        exposure = cls(
            acknowledged=acknowledged,
            count=count,
            first_seen=first_seen,
            id=id,
            label=label,
            last_seen=last_seen,
            rule=rule,
            scrubbed_from=scrubbed_from,
            sessions=sessions,
            warning=warning,
            acknowledged_at=acknowledged_at,
        )

        exposure.additional_properties = d
        return exposure

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
