from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.test_event_sent import TestEventSent
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
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
        "url": "/api/v1/webhooks/{id}/test".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TestEventSent | None:
    if response.status_code == 200:
        response_200 = TestEventSent.from_dict(response.json())

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
) -> Response[Problem | TestEventSent]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[Problem | TestEventSent]:
    """Send a test event.

     Queues a `webhook.test` event for this endpoint, whatever events it asked for, signed and
    delivered like any other: a way to check the receiver and its verification. Refused while
    the key that made the endpoint is revoked (nothing is sent to it then).

    Args:
        id (str): `whk_` followed by 26 Crockford base32 characters (a UUIDv7).
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TestEventSent]
    """

    kwargs = _get_kwargs(
        id=id,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Problem | TestEventSent | None:
    """Send a test event.

     Queues a `webhook.test` event for this endpoint, whatever events it asked for, signed and
    delivered like any other: a way to check the receiver and its verification. Refused while
    the key that made the endpoint is revoked (nothing is sent to it then).

    Args:
        id (str): `whk_` followed by 26 Crockford base32 characters (a UUIDv7).
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TestEventSent
    """

    return sync_detailed(
        id=id,
        client=client,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[Problem | TestEventSent]:
    """Send a test event.

     Queues a `webhook.test` event for this endpoint, whatever events it asked for, signed and
    delivered like any other: a way to check the receiver and its verification. Refused while
    the key that made the endpoint is revoked (nothing is sent to it then).

    Args:
        id (str): `whk_` followed by 26 Crockford base32 characters (a UUIDv7).
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TestEventSent]
    """

    kwargs = _get_kwargs(
        id=id,
        x_purpose=x_purpose,
        x_session_id=x_session_id,
        x_assistant=x_assistant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Problem | TestEventSent | None:
    """Send a test event.

     Queues a `webhook.test` event for this endpoint, whatever events it asked for, signed and
    delivered like any other: a way to check the receiver and its verification. Refused while
    the key that made the endpoint is revoked (nothing is sent to it then).

    Args:
        id (str): `whk_` followed by 26 Crockford base32 characters (a UUIDv7).
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TestEventSent
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            x_purpose=x_purpose,
            x_session_id=x_session_id,
            x_assistant=x_assistant,
        )
    ).parsed
