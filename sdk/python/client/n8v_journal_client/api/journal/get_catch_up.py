from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.catch_up import CatchUp
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    min_tier: str | Unset = UNSET,
    since: str | Unset = UNSET,
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

    params["min_tier"] = min_tier

    params["since"] = since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/journal/catch-up",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CatchUp | Problem | None:
    if response.status_code == 200:
        response_200 = CatchUp.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CatchUp | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    min_tier: str | Unset = UNSET,
    since: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[CatchUp | Problem]:
    """Read the catch-up brief.

     Call it first in a new conversation: decisions, work started, work finished and questions
    waiting for you since a time or a previous session, the sessions they come from (`more`
    says when older ones were left out), and, with `records:read`, what was put on record
    meanwhile in each Record you can open, and, with `orgs:read`, what members did on the
    Records of organizations you own. Needs `chats:read`.

    Args:
        min_tier (str | Unset):
        since (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CatchUp | Problem]
    """

    kwargs = _get_kwargs(
        min_tier=min_tier,
        since=since,
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
    min_tier: str | Unset = UNSET,
    since: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> CatchUp | Problem | None:
    """Read the catch-up brief.

     Call it first in a new conversation: decisions, work started, work finished and questions
    waiting for you since a time or a previous session, the sessions they come from (`more`
    says when older ones were left out), and, with `records:read`, what was put on record
    meanwhile in each Record you can open, and, with `orgs:read`, what members did on the
    Records of organizations you own. Needs `chats:read`.

    Args:
        min_tier (str | Unset):
        since (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CatchUp | Problem
    """

    return sync_detailed(
        client=client,
        min_tier=min_tier,
        since=since,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    min_tier: str | Unset = UNSET,
    since: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[CatchUp | Problem]:
    """Read the catch-up brief.

     Call it first in a new conversation: decisions, work started, work finished and questions
    waiting for you since a time or a previous session, the sessions they come from (`more`
    says when older ones were left out), and, with `records:read`, what was put on record
    meanwhile in each Record you can open, and, with `orgs:read`, what members did on the
    Records of organizations you own. Needs `chats:read`.

    Args:
        min_tier (str | Unset):
        since (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CatchUp | Problem]
    """

    kwargs = _get_kwargs(
        min_tier=min_tier,
        since=since,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    min_tier: str | Unset = UNSET,
    since: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> CatchUp | Problem | None:
    """Read the catch-up brief.

     Call it first in a new conversation: decisions, work started, work finished and questions
    waiting for you since a time or a previous session, the sessions they come from (`more`
    says when older ones were left out), and, with `records:read`, what was put on record
    meanwhile in each Record you can open, and, with `orgs:read`, what members did on the
    Records of organizations you own. Needs `chats:read`.

    Args:
        min_tier (str | Unset):
        since (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CatchUp | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            min_tier=min_tier,
            since=since,
            x_purpose=x_purpose,
            x_session_id=x_session_id,
            x_assistant=x_assistant,
        )
    ).parsed
