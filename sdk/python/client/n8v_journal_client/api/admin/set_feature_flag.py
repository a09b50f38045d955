from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.flag_value import FlagValue
from ...models.problem import Problem
from ...models.set_flag import SetFlag
from ...types import Response


def _get_kwargs(
    flag: str,
    *,
    body: SetFlag,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/internal/admin/feature-flags/{flag}".format(
            flag=quote(str(flag), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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
    flag: str,
    *,
    client: AuthenticatedClient,
    body: SetFlag,
) -> Response[Problem | list[FlagValue]]:
    """Turn a feature flag on or off.

     Sets the global value, or an override for one account; e.g. enable `assistantJournal` for
    an account. Every change is written to the operator log. Operator keys only.

    Args:
        flag (str):
        body (SetFlag): A feature flag's new value. Example: {'account':
            'acc_01KYP3WV40FHEAD8X4A1JH69RE', 'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[FlagValue]]
    """

    kwargs = _get_kwargs(
        flag=flag,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    flag: str,
    *,
    client: AuthenticatedClient,
    body: SetFlag,
) -> Problem | list[FlagValue] | None:
    """Turn a feature flag on or off.

     Sets the global value, or an override for one account; e.g. enable `assistantJournal` for
    an account. Every change is written to the operator log. Operator keys only.

    Args:
        flag (str):
        body (SetFlag): A feature flag's new value. Example: {'account':
            'acc_01KYP3WV40FHEAD8X4A1JH69RE', 'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[FlagValue]
    """

    return sync_detailed(
        flag=flag,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    flag: str,
    *,
    client: AuthenticatedClient,
    body: SetFlag,
) -> Response[Problem | list[FlagValue]]:
    """Turn a feature flag on or off.

     Sets the global value, or an override for one account; e.g. enable `assistantJournal` for
    an account. Every change is written to the operator log. Operator keys only.

    Args:
        flag (str):
        body (SetFlag): A feature flag's new value. Example: {'account':
            'acc_01KYP3WV40FHEAD8X4A1JH69RE', 'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[FlagValue]]
    """

    kwargs = _get_kwargs(
        flag=flag,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    flag: str,
    *,
    client: AuthenticatedClient,
    body: SetFlag,
) -> Problem | list[FlagValue] | None:
    """Turn a feature flag on or off.

     Sets the global value, or an override for one account; e.g. enable `assistantJournal` for
    an account. Every change is written to the operator log. Operator keys only.

    Args:
        flag (str):
        body (SetFlag): A feature flag's new value. Example: {'account':
            'acc_01KYP3WV40FHEAD8X4A1JH69RE', 'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[FlagValue]
    """

    return (
        await asyncio_detailed(
            flag=flag,
            client=client,
            body=body,
        )
    ).parsed
