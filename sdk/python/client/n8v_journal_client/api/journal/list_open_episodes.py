from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.open_episodes import OpenEpisodes
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    harness: str | Unset = UNSET,
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

    params["harness"] = harness

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/journal/episodes",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OpenEpisodes | Problem | None:
    if response.status_code == 200:
        response_200 = OpenEpisodes.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[OpenEpisodes | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    harness: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[OpenEpisodes | Problem]:
    """List the conversations waiting to be drafted.

     The episodes this key (and the tokens minted from it) posted whose last post found the
    conversation unsettled: their entries are still written by code and read as open
    sessions. A harness that can no longer tell the service the conversation ended (Codex has
    no end hook; an end hook can be killed) posts just these again with `ended: true`, and
    sends no other conversation's prose (`n8v-journal hook flush`). The most recent last turn
    first, at most 200. Needs `chats:read`.

    Args:
        harness (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenEpisodes | Problem]
    """

    kwargs = _get_kwargs(
        harness=harness,
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
    harness: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> OpenEpisodes | Problem | None:
    """List the conversations waiting to be drafted.

     The episodes this key (and the tokens minted from it) posted whose last post found the
    conversation unsettled: their entries are still written by code and read as open
    sessions. A harness that can no longer tell the service the conversation ended (Codex has
    no end hook; an end hook can be killed) posts just these again with `ended: true`, and
    sends no other conversation's prose (`n8v-journal hook flush`). The most recent last turn
    first, at most 200. Needs `chats:read`.

    Args:
        harness (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenEpisodes | Problem
    """

    return sync_detailed(
        client=client,
        harness=harness,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    harness: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[OpenEpisodes | Problem]:
    """List the conversations waiting to be drafted.

     The episodes this key (and the tokens minted from it) posted whose last post found the
    conversation unsettled: their entries are still written by code and read as open
    sessions. A harness that can no longer tell the service the conversation ended (Codex has
    no end hook; an end hook can be killed) posts just these again with `ended: true`, and
    sends no other conversation's prose (`n8v-journal hook flush`). The most recent last turn
    first, at most 200. Needs `chats:read`.

    Args:
        harness (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenEpisodes | Problem]
    """

    kwargs = _get_kwargs(
        harness=harness,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    harness: str | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> OpenEpisodes | Problem | None:
    """List the conversations waiting to be drafted.

     The episodes this key (and the tokens minted from it) posted whose last post found the
    conversation unsettled: their entries are still written by code and read as open
    sessions. A harness that can no longer tell the service the conversation ended (Codex has
    no end hook; an end hook can be killed) posts just these again with `ended: true`, and
    sends no other conversation's prose (`n8v-journal hook flush`). The most recent last turn
    first, at most 200. Needs `chats:read`.

    Args:
        harness (str | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenEpisodes | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            harness=harness,
            x_purpose=x_purpose,
            x_session_id=x_session_id,
            x_assistant=x_assistant,
        )
    ).parsed
