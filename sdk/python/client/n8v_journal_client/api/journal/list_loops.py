from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.loop_list import LoopList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_purpose, Unset):
        headers["X-Purpose"] = x_purpose

    if not isinstance(x_session_id, Unset):
        headers["X-Session-Id"] = x_session_id

    if not isinstance(x_assistant, Unset):
        headers["X-Assistant"] = x_assistant

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit

    params["state"] = state

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/journal/loops",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LoopList | Problem | None:
    if response.status_code == 200:
        response_200 = LoopList.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LoopList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[LoopList | Problem]:
    """List open loops.

     The open questions and next steps sessions handed on, as items (`itm_…`) with their state:
    your own first, then those members of organizations you own wrote (`own: false`, with
    `written_by`), each newest first.
    `open`, `stale` once open for 90 days, or closed as `done`, `answered` or `dropped` (with
    the closing session and time). Items opened together keep the order they were stated in;
    a member's item you dismissed is not listed. An item is opened when its session closes, from what
    its assistant stated at
    `session_end` and what its text marks; a later statement of an open item's text does not
    open a second one. Needs `chats:read`; an item is visible exactly when the session that
    opened it is (as in the session list).

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        state (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LoopList | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        state=state,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> LoopList | Problem | None:
    """List open loops.

     The open questions and next steps sessions handed on, as items (`itm_…`) with their state:
    your own first, then those members of organizations you own wrote (`own: false`, with
    `written_by`), each newest first.
    `open`, `stale` once open for 90 days, or closed as `done`, `answered` or `dropped` (with
    the closing session and time). Items opened together keep the order they were stated in;
    a member's item you dismissed is not listed. An item is opened when its session closes, from what
    its assistant stated at
    `session_end` and what its text marks; a later statement of an open item's text does not
    open a second one. Needs `chats:read`; an item is visible exactly when the session that
    opened it is (as in the session list).

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        state (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LoopList | Problem
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        limit=limit,
        state=state,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[LoopList | Problem]:
    """List open loops.

     The open questions and next steps sessions handed on, as items (`itm_…`) with their state:
    your own first, then those members of organizations you own wrote (`own: false`, with
    `written_by`), each newest first.
    `open`, `stale` once open for 90 days, or closed as `done`, `answered` or `dropped` (with
    the closing session and time). Items opened together keep the order they were stated in;
    a member's item you dismissed is not listed. An item is opened when its session closes, from what
    its assistant stated at
    `session_end` and what its text marks; a later statement of an open item's text does not
    open a second one. Needs `chats:read`; an item is visible exactly when the session that
    opened it is (as in the session list).

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        state (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LoopList | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        state=state,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> LoopList | Problem | None:
    """List open loops.

     The open questions and next steps sessions handed on, as items (`itm_…`) with their state:
    your own first, then those members of organizations you own wrote (`own: false`, with
    `written_by`), each newest first.
    `open`, `stale` once open for 90 days, or closed as `done`, `answered` or `dropped` (with
    the closing session and time). Items opened together keep the order they were stated in;
    a member's item you dismissed is not listed. An item is opened when its session closes, from what
    its assistant stated at
    `session_end` and what its text marks; a later statement of an open item's text does not
    open a second one. Needs `chats:read`; an item is visible exactly when the session that
    opened it is (as in the session list).

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        state (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LoopList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            limit=limit,
            state=state,
            x_purpose=x_purpose,
            x_session_id=x_session_id,
            x_assistant=x_assistant,
        )
    ).parsed
