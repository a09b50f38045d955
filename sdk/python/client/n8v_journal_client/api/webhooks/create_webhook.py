from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_webhook import CreateWebhook
from ...models.created_webhook import CreatedWebhook
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateWebhook,
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
        "url": "/api/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreatedWebhook | Problem | None:
    if response.status_code == 201:
        response_201 = CreatedWebhook.from_dict(response.json())

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
) -> Response[CreatedWebhook | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhook,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[CreatedWebhook | Problem]:
    """Make a webhook endpoint.

     Registers a URL to be sent the account's events, signed as Standard Webhooks specifies
    (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,…` over `id.timestamp.body`
    with HMAC-SHA256): verify them with the `standardwebhooks` libraries and the `secret`
    answered here, which is shown this once. Only `https` URLs on public addresses (loopback,
    private and link-local ones are refused, now and again at each delivery). Each event is
    retried with exponential backoff for about a day; an endpoint failing many attempts in a
    row is disabled (and `endpoint.disabled` sent to the others). Needs `webhooks:write`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (CreateWebhook): Make a webhook endpoint. Example: {'description': 'team channel',
            'events': ['session.ended', 'loop.opened'], 'url': 'https://hooks.example.com/n8v'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedWebhook | Problem]
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
    body: CreateWebhook,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> CreatedWebhook | Problem | None:
    """Make a webhook endpoint.

     Registers a URL to be sent the account's events, signed as Standard Webhooks specifies
    (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,…` over `id.timestamp.body`
    with HMAC-SHA256): verify them with the `standardwebhooks` libraries and the `secret`
    answered here, which is shown this once. Only `https` URLs on public addresses (loopback,
    private and link-local ones are refused, now and again at each delivery). Each event is
    retried with exponential backoff for about a day; an endpoint failing many attempts in a
    row is disabled (and `endpoint.disabled` sent to the others). Needs `webhooks:write`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (CreateWebhook): Make a webhook endpoint. Example: {'description': 'team channel',
            'events': ['session.ended', 'loop.opened'], 'url': 'https://hooks.example.com/n8v'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedWebhook | Problem
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
    body: CreateWebhook,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[CreatedWebhook | Problem]:
    """Make a webhook endpoint.

     Registers a URL to be sent the account's events, signed as Standard Webhooks specifies
    (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,…` over `id.timestamp.body`
    with HMAC-SHA256): verify them with the `standardwebhooks` libraries and the `secret`
    answered here, which is shown this once. Only `https` URLs on public addresses (loopback,
    private and link-local ones are refused, now and again at each delivery). Each event is
    retried with exponential backoff for about a day; an endpoint failing many attempts in a
    row is disabled (and `endpoint.disabled` sent to the others). Needs `webhooks:write`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (CreateWebhook): Make a webhook endpoint. Example: {'description': 'team channel',
            'events': ['session.ended', 'loop.opened'], 'url': 'https://hooks.example.com/n8v'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedWebhook | Problem]
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
    body: CreateWebhook,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> CreatedWebhook | Problem | None:
    """Make a webhook endpoint.

     Registers a URL to be sent the account's events, signed as Standard Webhooks specifies
    (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,…` over `id.timestamp.body`
    with HMAC-SHA256): verify them with the `standardwebhooks` libraries and the `secret`
    answered here, which is shown this once. Only `https` URLs on public addresses (loopback,
    private and link-local ones are refused, now and again at each delivery). Each event is
    retried with exponential backoff for about a day; an endpoint failing many attempts in a
    row is disabled (and `endpoint.disabled` sent to the others). Needs `webhooks:write`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (CreateWebhook): Make a webhook endpoint. Example: {'description': 'team channel',
            'events': ['session.ended', 'loop.opened'], 'url': 'https://hooks.example.com/n8v'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedWebhook | Problem
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
