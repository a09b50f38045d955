from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatedWebhook")


@_attrs_define
class CreatedWebhook:
    """A new endpoint, with its signing secret: shown this once.

    Attributes:
        created_at (datetime.datetime):
        enabled (bool): False once disabled (by a run of failed deliveries, or on purpose); nothing is sent to
            a disabled endpoint. `PATCH` with `"enabled": true` turns it on again.
        events (list[str]): The event types it is sent. Example: ['session.ended', 'loop.opened'].
        failures (int): Failed attempts in a row (reset by a success).
        id (str): `whk_` followed by 26 Crockford base32 characters (a UUIDv7).
        maker_revoked (bool): True once the key that made it (whose reach is the endpoint's ceiling) is revoked:
            nothing is sent to it, and its deliveries pending then ended unsent. A live key of the
            account holding `webhooks:write` takes it over with `POST /api/v1/webhooks/{id}/maker`.
        updated_at (datetime.datetime):
        url (str): Where events are sent (`https`). Example: https://hooks.example.com/n8v.
        secret (str): The signing secret (`whsec_…`), for the Standard Webhooks libraries. Never shown again.
        description (None | str | Unset):
        disabled_at (datetime.datetime | None | Unset):
    """

    created_at: datetime.datetime
    enabled: bool
    events: list[str]
    failures: int
    id: str
    maker_revoked: bool
    updated_at: datetime.datetime
    url: str
    secret: str
    description: None | str | Unset = UNSET
    disabled_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        enabled = self.enabled

        events = self.events

        failures = self.failures

        id = self.id

        maker_revoked = self.maker_revoked

        updated_at = self.updated_at.isoformat()

        url = self.url

        secret = self.secret

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        disabled_at: None | str | Unset
        if isinstance(self.disabled_at, Unset):
            disabled_at = UNSET
        elif isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "enabled": enabled,
                "events": events,
                "failures": failures,
                "id": id,
                "maker_revoked": maker_revoked,
                "updated_at": updated_at,
                "url": url,
                "secret": secret,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if disabled_at is not UNSET:
            field_dict["disabled_at"] = disabled_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        enabled = d.pop("enabled")

        events = cast(list[str], d.pop("events"))

        failures = d.pop("failures")

        id = d.pop("id")

        maker_revoked = d.pop("maker_revoked")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        url = d.pop("url")

        secret = d.pop("secret")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_disabled_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)

                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        disabled_at = _parse_disabled_at(d.pop("disabled_at", UNSET))

        created_webhook = cls(
            created_at=created_at,
            enabled=enabled,
            events=events,
            failures=failures,
            id=id,
            maker_revoked=maker_revoked,
            updated_at=updated_at,
            url=url,
            secret=secret,
            description=description,
            disabled_at=disabled_at,
        )

        created_webhook.additional_properties = d
        return created_webhook

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
