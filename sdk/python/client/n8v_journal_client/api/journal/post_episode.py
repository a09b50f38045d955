from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.episode_posted import EpisodePosted
from ...models.episode_request import EpisodeRequest
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: EpisodeRequest,
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
        "url": "/api/v1/journal/episodes",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EpisodePosted | Problem | None:
    if response.status_code == 201:
        response_201 = EpisodePosted.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EpisodePosted | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EpisodeRequest,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[EpisodePosted | Problem]:
    """Post a conversation.

     A harness posts a conversation held outside the API, again as it grows (a per-turn hook, a
    resumed conversation); each ~30,000-character part becomes one journal entry (a session of
    kind `episode`, labelled with the harness and project). The split is stable: turns added at
    the end change only the last part and add new ones. A part whose turns are the same as last
    time changes nothing and calls no model; a changed part is rewritten. The summary model
    drafts a part once the conversation settled: `ended` is true, its `ended_at` is
    `N8V_EPISODE_SETTLE_MINUTES` (default 30) old, or the setting is 0. Until then its entry is
    written by code and reads as an open session. Code's entry (also without a model or
    budget) quotes the part's first request and last reply, cut short, and its hand-off holds
    the `Decided:`, `Open question:`, `TODO:` … lines of the turns, scrubbed. The prose is never
    stored: tool calls and output, reasoning and private turns are dropped unread, credentials
    are scrubbed before a model sees the rest, and only the entries are kept. Idempotent by
    episode id, part and turns for the posting key (and the tokens minted from it); another key
    of the account posting the same id makes its own entries. A conversation without an
    assistant reply makes no entry and costs nothing. Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (EpisodeRequest): A conversation as far as it went, as a harness saw it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EpisodePosted | Problem]
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
    body: EpisodeRequest,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> EpisodePosted | Problem | None:
    """Post a conversation.

     A harness posts a conversation held outside the API, again as it grows (a per-turn hook, a
    resumed conversation); each ~30,000-character part becomes one journal entry (a session of
    kind `episode`, labelled with the harness and project). The split is stable: turns added at
    the end change only the last part and add new ones. A part whose turns are the same as last
    time changes nothing and calls no model; a changed part is rewritten. The summary model
    drafts a part once the conversation settled: `ended` is true, its `ended_at` is
    `N8V_EPISODE_SETTLE_MINUTES` (default 30) old, or the setting is 0. Until then its entry is
    written by code and reads as an open session. Code's entry (also without a model or
    budget) quotes the part's first request and last reply, cut short, and its hand-off holds
    the `Decided:`, `Open question:`, `TODO:` … lines of the turns, scrubbed. The prose is never
    stored: tool calls and output, reasoning and private turns are dropped unread, credentials
    are scrubbed before a model sees the rest, and only the entries are kept. Idempotent by
    episode id, part and turns for the posting key (and the tokens minted from it); another key
    of the account posting the same id makes its own entries. A conversation without an
    assistant reply makes no entry and costs nothing. Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (EpisodeRequest): A conversation as far as it went, as a harness saw it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EpisodePosted | Problem
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
    body: EpisodeRequest,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[EpisodePosted | Problem]:
    """Post a conversation.

     A harness posts a conversation held outside the API, again as it grows (a per-turn hook, a
    resumed conversation); each ~30,000-character part becomes one journal entry (a session of
    kind `episode`, labelled with the harness and project). The split is stable: turns added at
    the end change only the last part and add new ones. A part whose turns are the same as last
    time changes nothing and calls no model; a changed part is rewritten. The summary model
    drafts a part once the conversation settled: `ended` is true, its `ended_at` is
    `N8V_EPISODE_SETTLE_MINUTES` (default 30) old, or the setting is 0. Until then its entry is
    written by code and reads as an open session. Code's entry (also without a model or
    budget) quotes the part's first request and last reply, cut short, and its hand-off holds
    the `Decided:`, `Open question:`, `TODO:` … lines of the turns, scrubbed. The prose is never
    stored: tool calls and output, reasoning and private turns are dropped unread, credentials
    are scrubbed before a model sees the rest, and only the entries are kept. Idempotent by
    episode id, part and turns for the posting key (and the tokens minted from it); another key
    of the account posting the same id makes its own entries. A conversation without an
    assistant reply makes no entry and costs nothing. Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (EpisodeRequest): A conversation as far as it went, as a harness saw it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EpisodePosted | Problem]
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
    body: EpisodeRequest,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> EpisodePosted | Problem | None:
    """Post a conversation.

     A harness posts a conversation held outside the API, again as it grows (a per-turn hook, a
    resumed conversation); each ~30,000-character part becomes one journal entry (a session of
    kind `episode`, labelled with the harness and project). The split is stable: turns added at
    the end change only the last part and add new ones. A part whose turns are the same as last
    time changes nothing and calls no model; a changed part is rewritten. The summary model
    drafts a part once the conversation settled: `ended` is true, its `ended_at` is
    `N8V_EPISODE_SETTLE_MINUTES` (default 30) old, or the setting is 0. Until then its entry is
    written by code and reads as an open session. Code's entry (also without a model or
    budget) quotes the part's first request and last reply, cut short, and its hand-off holds
    the `Decided:`, `Open question:`, `TODO:` … lines of the turns, scrubbed. The prose is never
    stored: tool calls and output, reasoning and private turns are dropped unread, credentials
    are scrubbed before a model sees the rest, and only the entries are kept. Idempotent by
    episode id, part and turns for the posting key (and the tokens minted from it); another key
    of the account posting the same id makes its own entries. A conversation without an
    assistant reply makes no entry and costs nothing. Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (EpisodeRequest): A conversation as far as it went, as a harness saw it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EpisodePosted | Problem
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
