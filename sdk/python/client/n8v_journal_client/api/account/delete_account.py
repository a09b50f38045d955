from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.account_deleted import AccountDeleted
from ...models.delete_account_request import DeleteAccountRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: DeleteAccountRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/account",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AccountDeleted | Problem | None:
    if response.status_code == 200:
        response_200 = AccountDeleted.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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
) -> Response[AccountDeleted | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: DeleteAccountRequest,
) -> Response[AccountDeleted | Problem]:
    """Delete the account.

     Deletes the account and every row of it — sessions, calls, summaries, Records and their
    entries, organizations it owns, keys, flags, the audit log — and its queued jobs. Permanent.
    Needs the `account:delete` scope and `confirm` set to the account's id. Not journalled (the
    journal goes with the account); the deletion is written to the operators' log.

    Args:
        body (DeleteAccountRequest): Deletes the caller's account: the confirmation a deletion
            needs.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccountDeleted | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: DeleteAccountRequest,
) -> AccountDeleted | Problem | None:
    """Delete the account.

     Deletes the account and every row of it — sessions, calls, summaries, Records and their
    entries, organizations it owns, keys, flags, the audit log — and its queued jobs. Permanent.
    Needs the `account:delete` scope and `confirm` set to the account's id. Not journalled (the
    journal goes with the account); the deletion is written to the operators' log.

    Args:
        body (DeleteAccountRequest): Deletes the caller's account: the confirmation a deletion
            needs.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccountDeleted | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: DeleteAccountRequest,
) -> Response[AccountDeleted | Problem]:
    """Delete the account.

     Deletes the account and every row of it — sessions, calls, summaries, Records and their
    entries, organizations it owns, keys, flags, the audit log — and its queued jobs. Permanent.
    Needs the `account:delete` scope and `confirm` set to the account's id. Not journalled (the
    journal goes with the account); the deletion is written to the operators' log.

    Args:
        body (DeleteAccountRequest): Deletes the caller's account: the confirmation a deletion
            needs.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccountDeleted | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: DeleteAccountRequest,
) -> AccountDeleted | Problem | None:
    """Delete the account.

     Deletes the account and every row of it — sessions, calls, summaries, Records and their
    entries, organizations it owns, keys, flags, the audit log — and its queued jobs. Permanent.
    Needs the `account:delete` scope and `confirm` set to the account's id. Not journalled (the
    journal goes with the account); the deletion is written to the operators' log.

    Args:
        body (DeleteAccountRequest): Deletes the caller's account: the confirmation a deletion
            needs.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccountDeleted | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
