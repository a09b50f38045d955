from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    format_: str | Unset = UNSET,
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

    params["format"] = format_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/journal/export",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
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

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    format_: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[Problem | str]:
    """Export the journal.

     Everything this credential can read of the journal, oldest first, streamed: the sessions
    the session list shows, their calls, their stored summaries, and the week and month digests.
    As NDJSON (the default), one object a line with its `type` (`session`, `call`, `summary`,
    `digest`), each as the API answers it elsewhere; with `format=markdown`, one document.
    Visibility is the session list's. Needs `chats:read`. Recorded as one journal read, before
    the body is sent. Exports are bounded: a third of one account's at once gets `429`
    (`too-many-at-once`), a server streaming as many as it runs `503` (`busy`), both with
    `Retry-After`; a reader that takes nothing for 30 s, or an export past 10 minutes, is cut
    off with a broken transfer, never a clean end.

    Args:
        format_ (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        format_=format_,
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
    format_: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Problem | str | None:
    """Export the journal.

     Everything this credential can read of the journal, oldest first, streamed: the sessions
    the session list shows, their calls, their stored summaries, and the week and month digests.
    As NDJSON (the default), one object a line with its `type` (`session`, `call`, `summary`,
    `digest`), each as the API answers it elsewhere; with `format=markdown`, one document.
    Visibility is the session list's. Needs `chats:read`. Recorded as one journal read, before
    the body is sent. Exports are bounded: a third of one account's at once gets `429`
    (`too-many-at-once`), a server streaming as many as it runs `503` (`busy`), both with
    `Retry-After`; a reader that takes nothing for 30 s, or an export past 10 minutes, is cut
    off with a broken transfer, never a clean end.

    Args:
        format_ (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        client=client,
        format_=format_,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    format_: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[Problem | str]:
    """Export the journal.

     Everything this credential can read of the journal, oldest first, streamed: the sessions
    the session list shows, their calls, their stored summaries, and the week and month digests.
    As NDJSON (the default), one object a line with its `type` (`session`, `call`, `summary`,
    `digest`), each as the API answers it elsewhere; with `format=markdown`, one document.
    Visibility is the session list's. Needs `chats:read`. Recorded as one journal read, before
    the body is sent. Exports are bounded: a third of one account's at once gets `429`
    (`too-many-at-once`), a server streaming as many as it runs `503` (`busy`), both with
    `Retry-After`; a reader that takes nothing for 30 s, or an export past 10 minutes, is cut
    off with a broken transfer, never a clean end.

    Args:
        format_ (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        format_=format_,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    format_: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Problem | str | None:
    """Export the journal.

     Everything this credential can read of the journal, oldest first, streamed: the sessions
    the session list shows, their calls, their stored summaries, and the week and month digests.
    As NDJSON (the default), one object a line with its `type` (`session`, `call`, `summary`,
    `digest`), each as the API answers it elsewhere; with `format=markdown`, one document.
    Visibility is the session list's. Needs `chats:read`. Recorded as one journal read, before
    the body is sent. Exports are bounded: a third of one account's at once gets `429`
    (`too-many-at-once`), a server streaming as many as it runs `503` (`busy`), both with
    `Retry-After`; a reader that takes nothing for 30 s, or an export past 10 minutes, is cut
    off with a broken transfer, never a clean end.

    Args:
        format_ (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            client=client,
            format_=format_,
            x_purpose=x_purpose,
            x_session_id=x_session_id,
            x_assistant=x_assistant,
        )
    ).parsed
