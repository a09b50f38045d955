from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TokenResponse")


@_attrs_define
class TokenResponse:
    """A minted access token.

    Example:
        {'access_token': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJrZXlfMDEuLi4ifQ.c2lnbmF0dXJl', 'expires_in': 600, 'key_id':
            'key_01KZKXJDM0F4QS4FR84G98PBSK', 'scopes': ['chats:read'], 'token_type': 'Bearer'}

    Attributes:
        access_token (str): The token (an HS256 JWT), to send as `Authorization: Bearer <token>`.
        expires_in (int): Seconds until the token expires.
        key_id (str): `key_` followed by 26 Crockford base32 characters (a UUIDv7).
        scopes (list[str]): The scopes the token carries.
        token_type (str): Always `Bearer`.
    """

    access_token: str
    expires_in: int
    key_id: str
    scopes: list[str]
    token_type: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        expires_in = self.expires_in

        key_id = self.key_id

        scopes = self.scopes

        token_type = self.token_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access_token": access_token,
                "expires_in": expires_in,
                "key_id": key_id,
                "scopes": scopes,
                "token_type": token_type,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        access_token = d.pop("access_token")

        expires_in = d.pop("expires_in")

        key_id = d.pop("key_id")

        scopes = cast(list[str], d.pop("scopes"))

        token_type = d.pop("token_type")

        token_response = cls(
            access_token=access_token,
            expires_in=expires_in,
            key_id=key_id,
            scopes=scopes,
            token_type=token_type,
        )

        token_response.additional_properties = d
        return token_response

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
