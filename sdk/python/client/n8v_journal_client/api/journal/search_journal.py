import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.search_results import SearchResults
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    assistant: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    organization: str | Unset = UNSET,
    q: str,
    repo: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
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

    params["assistant"] = assistant

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    params["limit"] = limit

    params["organization"] = organization

    params["q"] = q

    params["repo"] = repo

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/journal/search",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SearchResults | None:
    if response.status_code == 200:
        response_200 = SearchResults.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | SearchResults]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    assistant: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    organization: str | Unset = UNSET,
    q: str,
    repo: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[Problem | SearchResults]:
    """Search the journal.

     PostgreSQL full-text search over sessions' goals, outcomes and summaries, calls' purposes
    and week and month digests, most relevant first, over the last year unless `from` says
    otherwise. Narrowed by repository, organization or assistant (digests, which belong to none,
    are then left out). Only what the credential could read matches: the same visibility as the
    session list. Needs `chats:read`. Recorded as a journal read.

    Args:
        assistant (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        organization (str | Unset):
        q (str):
        repo (str | Unset):
        to (datetime.datetime | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SearchResults]
    """

    kwargs = _get_kwargs(
        assistant=assistant,
        from_=from_,
        limit=limit,
        organization=organization,
        q=q,
        repo=repo,
        to=to,
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
    assistant: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    organization: str | Unset = UNSET,
    q: str,
    repo: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Problem | SearchResults | None:
    """Search the journal.

     PostgreSQL full-text search over sessions' goals, outcomes and summaries, calls' purposes
    and week and month digests, most relevant first, over the last year unless `from` says
    otherwise. Narrowed by repository, organization or assistant (digests, which belong to none,
    are then left out). Only what the credential could read matches: the same visibility as the
    session list. Needs `chats:read`. Recorded as a journal read.

    Args:
        assistant (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        organization (str | Unset):
        q (str):
        repo (str | Unset):
        to (datetime.datetime | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SearchResults
    """

    return sync_detailed(
        client=client,
        assistant=assistant,
        from_=from_,
        limit=limit,
        organization=organization,
        q=q,
        repo=repo,
        to=to,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    assistant: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    organization: str | Unset = UNSET,
    q: str,
    repo: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[Problem | SearchResults]:
    """Search the journal.

     PostgreSQL full-text search over sessions' goals, outcomes and summaries, calls' purposes
    and week and month digests, most relevant first, over the last year unless `from` says
    otherwise. Narrowed by repository, organization or assistant (digests, which belong to none,
    are then left out). Only what the credential could read matches: the same visibility as the
    session list. Needs `chats:read`. Recorded as a journal read.

    Args:
        assistant (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        organization (str | Unset):
        q (str):
        repo (str | Unset):
        to (datetime.datetime | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SearchResults]
    """

    kwargs = _get_kwargs(
        assistant=assistant,
        from_=from_,
        limit=limit,
        organization=organization,
        q=q,
        repo=repo,
        to=to,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    assistant: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    organization: str | Unset = UNSET,
    q: str,
    repo: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Problem | SearchResults | None:
    """Search the journal.

     PostgreSQL full-text search over sessions' goals, outcomes and summaries, calls' purposes
    and week and month digests, most relevant first, over the last year unless `from` says
    otherwise. Narrowed by repository, organization or assistant (digests, which belong to none,
    are then left out). Only what the credential could read matches: the same visibility as the
    session list. Needs `chats:read`. Recorded as a journal read.

    Args:
        assistant (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        organization (str | Unset):
        q (str):
        repo (str | Unset):
        to (datetime.datetime | Unset):
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SearchResults
    """

    return (
        await asyncio_detailed(
            client=client,
            assistant=assistant,
            from_=from_,
            limit=limit,
            organization=organization,
            q=q,
            repo=repo,
            to=to,
            x_purpose=x_purpose,
            x_session_id=x_session_id,
            x_assistant=x_assistant,
        )
    ).parsed
