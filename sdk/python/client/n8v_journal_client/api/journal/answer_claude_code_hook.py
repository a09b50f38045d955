from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.claude_code_hook_input import ClaudeCodeHookInput
from ...models.hook_answer import HookAnswer
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: ClaudeCodeHookInput,
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
        "url": "/api/v1/hooks/claude-code",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HookAnswer | Problem | None:
    if response.status_code == 200:
        response_200 = HookAnswer.from_dict(response.json())

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
) -> Response[HookAnswer | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ClaudeCodeHookInput,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[HookAnswer | Problem]:
    """Answer a Claude Code hook.

     Claude Code posts a hook's JSON input here itself (a hook of type `http`, with
    `Authorization: Bearer $N8V_TOKEN` from `allowedEnvVars`), so no binary runs on the
    person's machine. The service never sees the transcript the input names: it answers
    `UserPromptSubmit` (and `SessionStart`, where Claude Code runs `http` hooks) with the recent
    journal as `additionalContext`, once per conversation (`session_id`) a day, and `{}` to
    the conversation's later prompts and to `Stop`, `SessionEnd`, `PreCompact` and Claude
    Code's other events, which change nothing: posting the conversation needs the binary's
    hooks. The prompt is never read. Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (ClaudeCodeHookInput): A Claude Code hook's input, as Claude Code posts it (fields it
            adds are ignored, and the
            prompt is never read).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HookAnswer | Problem]
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
    body: ClaudeCodeHookInput,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> HookAnswer | Problem | None:
    """Answer a Claude Code hook.

     Claude Code posts a hook's JSON input here itself (a hook of type `http`, with
    `Authorization: Bearer $N8V_TOKEN` from `allowedEnvVars`), so no binary runs on the
    person's machine. The service never sees the transcript the input names: it answers
    `UserPromptSubmit` (and `SessionStart`, where Claude Code runs `http` hooks) with the recent
    journal as `additionalContext`, once per conversation (`session_id`) a day, and `{}` to
    the conversation's later prompts and to `Stop`, `SessionEnd`, `PreCompact` and Claude
    Code's other events, which change nothing: posting the conversation needs the binary's
    hooks. The prompt is never read. Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (ClaudeCodeHookInput): A Claude Code hook's input, as Claude Code posts it (fields it
            adds are ignored, and the
            prompt is never read).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HookAnswer | Problem
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
    body: ClaudeCodeHookInput,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> Response[HookAnswer | Problem]:
    """Answer a Claude Code hook.

     Claude Code posts a hook's JSON input here itself (a hook of type `http`, with
    `Authorization: Bearer $N8V_TOKEN` from `allowedEnvVars`), so no binary runs on the
    person's machine. The service never sees the transcript the input names: it answers
    `UserPromptSubmit` (and `SessionStart`, where Claude Code runs `http` hooks) with the recent
    journal as `additionalContext`, once per conversation (`session_id`) a day, and `{}` to
    the conversation's later prompts and to `Stop`, `SessionEnd`, `PreCompact` and Claude
    Code's other events, which change nothing: posting the conversation needs the binary's
    hooks. The prompt is never read. Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (ClaudeCodeHookInput): A Claude Code hook's input, as Claude Code posts it (fields it
            adds are ignored, and the
            prompt is never read).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HookAnswer | Problem]
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
    body: ClaudeCodeHookInput,
    x_purpose: str | Unset = UNSET,
    x_session_id: str | Unset = UNSET,
    x_assistant: str | Unset = UNSET,
) -> HookAnswer | Problem | None:
    """Answer a Claude Code hook.

     Claude Code posts a hook's JSON input here itself (a hook of type `http`, with
    `Authorization: Bearer $N8V_TOKEN` from `allowedEnvVars`), so no binary runs on the
    person's machine. The service never sees the transcript the input names: it answers
    `UserPromptSubmit` (and `SessionStart`, where Claude Code runs `http` hooks) with the recent
    journal as `additionalContext`, once per conversation (`session_id`) a day, and `{}` to
    the conversation's later prompts and to `Stop`, `SessionEnd`, `PreCompact` and Claude
    Code's other events, which change nothing: posting the conversation needs the binary's
    hooks. The prompt is never read. Needs `chats:read`.

    Args:
        x_purpose (str | Unset):
        x_session_id (str | Unset):
        x_assistant (str | Unset):
        body (ClaudeCodeHookInput): A Claude Code hook's input, as Claude Code posts it (fields it
            adds are ignored, and the
            prompt is never read).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HookAnswer | Problem
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
