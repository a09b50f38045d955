from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateWebhook")


@_attrs_define
class CreateWebhook:
    """Make a webhook endpoint.

    Example:
        {'description': 'team channel', 'events': ['session.ended', 'loop.opened'], 'url':
            'https://hooks.example.com/n8v'}

    Attributes:
        events (list[str]): The event types to send: `session.ended`, `summary.ready`, `loop.opened`,
            `loop.closed`, `decision.replaced`, `exposure.seen`, `digest.ready`,
            `endpoint.disabled`.
        url (str): Where to send events: an `https` URL on a public address.
        description (None | str | Unset):
    """

    events: list[str]
    url: str
    description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        events = self.events

        url = self.url

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "url": url,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        events = cast(list[str], d.pop("events"))

        url = d.pop("url")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        create_webhook = cls(
            events=events,
            url=url,
            description=description,
        )

        return create_webhook
