from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.flag_value import FlagValue
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    account: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["account"] = account

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/internal/admin/feature-flags",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | list[FlagValue] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = FlagValue.from_dict(response_200_item_data)

            response_200.append(response_200_item)

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | list[FlagValue]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    account: str | Unset = UNSET,
) -> Response[Problem | list[FlagValue]]:
    """List the feature flags.

     Each flag's global value, or the value that applies to one account. Operator keys only.

    Args:
        account (str | Unset): `acc_` followed by 26 Crockford base32 characters (a UUIDv7).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[FlagValue]]
    """

    kwargs = _get_kwargs(
        account=account,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    account: str | Unset = UNSET,
) -> Problem | list[FlagValue] | None:
    """List the feature flags.

     Each flag's global value, or the value that applies to one account. Operator keys only.

    Args:
        account (str | Unset): `acc_` followed by 26 Crockford base32 characters (a UUIDv7).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[FlagValue]
    """

    return sync_detailed(
        client=client,
        account=account,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    account: str | Unset = UNSET,
) -> Response[Problem | list[FlagValue]]:
    """List the feature flags.

     Each flag's global value, or the value that applies to one account. Operator keys only.

    Args:
        account (str | Unset): `acc_` followed by 26 Crockford base32 characters (a UUIDv7).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[FlagValue]]
    """

    kwargs = _get_kwargs(
        account=account,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    account: str | Unset = UNSET,
) -> Problem | list[FlagValue] | None:
    """List the feature flags.

     Each flag's global value, or the value that applies to one account. Operator keys only.

    Args:
        account (str | Unset): `acc_` followed by 26 Crockford base32 characters (a UUIDv7).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[FlagValue]
    """

    return (
        await asyncio_detailed(
            client=client,
            account=account,
        )
    ).parsed
