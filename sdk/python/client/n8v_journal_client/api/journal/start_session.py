from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.session import Session
from ...models.start_request import StartRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: StartRequest,
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

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/journal/sessions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Session | None:
    if response.status_code == 201:
        response_201 = Session.from_dict(response.json())

        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Session]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: StartRequest,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[Problem | Session]:
    """Open a session.

     Open a session with one sentence describing the goal, then send its id as `X-Session-Id`
    on each call of the conversation and close it with what happened. The assistant is taken
    from `X-Assistant` (else the `User-Agent`). Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (StartRequest): A conversation to open; every field is optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
    """

    kwargs = _get_kwargs(
        body=body,
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
    body: StartRequest,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Problem | Session | None:
    """Open a session.

     Open a session with one sentence describing the goal, then send its id as `X-Session-Id`
    on each call of the conversation and close it with what happened. The assistant is taken
    from `X-Assistant` (else the `User-Agent`). Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (StartRequest): A conversation to open; every field is optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Session
    """

    return sync_detailed(
        client=client,
        body=body,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: StartRequest,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[Problem | Session]:
    """Open a session.

     Open a session with one sentence describing the goal, then send its id as `X-Session-Id`
    on each call of the conversation and close it with what happened. The assistant is taken
    from `X-Assistant` (else the `User-Agent`). Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (StartRequest): A conversation to open; every field is optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Session]
    """

    kwargs = _get_kwargs(
        body=body,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: StartRequest,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Problem | Session | None:
    """Open a session.

     Open a session with one sentence describing the goal, then send its id as `X-Session-Id`
    on each call of the conversation and close it with what happened. The assistant is taken
    from `X-Assistant` (else the `User-Agent`). Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (StartRequest): A conversation to open; every field is optional.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Session
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_purpose=x_purpose,
            x_session_id=x_session_id,
            x_assistant=x_assistant,
        )
    ).parsed
