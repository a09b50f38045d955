from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EndRequest")


@_attrs_define
class EndRequest:
    """How a conversation ended: what happened, and the decisions, open questions and next steps
    handed to the next conversation; the open items (`itm_…`) it settled.

        Attributes:
            decisions (list[str] | None | Unset): Decisions made in this session, one line each in your own words (at most
                20 items of
                300 characters; credentials scrubbed). The next conversation's catch-up brief lists them
                ahead of anything a summary derives.
            next_steps (list[str] | None | Unset): What the next conversation should do first (same limits).
            open_questions (list[str] | None | Unset): Questions left open for the person or the next conversation (same
                limits).
            outcome (None | str | Unset): What happened: the handoff for the next conversation (up to 2,000 characters;
                credentials in it are scrubbed). Optional, but give it: a session with a goal and an
                outcome is a hand-off the next conversation always sees.
            replaces (list[str] | None | Unset): Earlier decisions (`itm_…`, at most 100, as the brief lists them with their
                ids) that
                this session's first decision replaces: they stop being current and show under it
                ("replaces: …"). Give that decision in `decisions`. Only decisions this credential can
                read are replaced; an id that replaces nothing (no decision given, none it may replace,
                one replaced already) is skipped and listed in the answer's `not_replaced`. To pair
                several, mark a decision line `Replaces itm_…: …` instead.
            resolved (list[str] | None | Unset): Open loops this session settled (`itm_…`, at most 100), as the brief and
                the open loops
                list them: each is closed in this session, a question as `answered`, a next step as
                `done`. Items closed already stay as they were; an id that names no item this credential
                may close is skipped and listed in the answer's `not_resolved`.
    """

    decisions: list[str] | None | Unset = UNSET
    next_steps: list[str] | None | Unset = UNSET
    open_questions: list[str] | None | Unset = UNSET
    outcome: None | str | Unset = UNSET
    replaces: list[str] | None | Unset = UNSET
    resolved: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        decisions: list[str] | None | Unset
        if isinstance(self.decisions, Unset):
            decisions = UNSET
        elif isinstance(self.decisions, list):
            decisions = self.decisions

        else:
            decisions = self.decisions

        next_steps: list[str] | None | Unset
        if isinstance(self.next_steps, Unset):
            next_steps = UNSET
        elif isinstance(self.next_steps, list):
            next_steps = self.next_steps

        else:
            next_steps = self.next_steps

        open_questions: list[str] | None | Unset
        if isinstance(self.open_questions, Unset):
            open_questions = UNSET
        elif isinstance(self.open_questions, list):
            open_questions = self.open_questions

        else:
            open_questions = self.open_questions

        outcome: None | str | Unset
        if isinstance(self.outcome, Unset):
            outcome = UNSET
        else:
            outcome = self.outcome

        replaces: list[str] | None | Unset
        if isinstance(self.replaces, Unset):
            replaces = UNSET
        elif isinstance(self.replaces, list):
            replaces = self.replaces

        else:
            replaces = self.replaces

        resolved: list[str] | None | Unset
        if isinstance(self.resolved, Unset):
            resolved = UNSET
        elif isinstance(self.resolved, list):
            resolved = self.resolved

        else:
            resolved = self.resolved

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if decisions is not UNSET:
            field_dict["decisions"] = decisions
        if next_steps is not UNSET:
            field_dict["next_steps"] = next_steps
        if open_questions is not UNSET:
            field_dict["open_questions"] = open_questions
        if outcome is not UNSET:
            field_dict["outcome"] = outcome
        if replaces is not UNSET:
            field_dict["replaces"] = replaces
        if resolved is not UNSET:
            field_dict["resolved"] = resolved

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_decisions(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                decisions_type_0 = cast(list[str], data)

                return decisions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        decisions = _parse_decisions(d.pop("decisions", UNSET))

        def _parse_next_steps(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                next_steps_type_0 = cast(list[str], data)

                return next_steps_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        next_steps = _parse_next_steps(d.pop("next_steps", UNSET))

        def _parse_open_questions(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                open_questions_type_0 = cast(list[str], data)

                return open_questions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        open_questions = _parse_open_questions(d.pop("open_questions", UNSET))

        def _parse_outcome(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        outcome = _parse_outcome(d.pop("outcome", UNSET))

        def _parse_replaces(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                replaces_type_0 = cast(list[str], data)

                return replaces_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        replaces = _parse_replaces(d.pop("replaces", UNSET))

        def _parse_resolved(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                resolved_type_0 = cast(list[str], data)

                return resolved_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        resolved = _parse_resolved(d.pop("resolved", UNSET))

        end_request = cls(
            decisions=decisions,
            next_steps=next_steps,
            open_questions=open_questions,
            outcome=outcome,
            replaces=replaces,
            resolved=resolved,
        )

        return end_request
