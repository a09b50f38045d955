from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.exposure import Exposure
    from ..models.item import Item
    from ..models.organization_activity import OrganizationActivity
    from ..models.record_change import RecordChange
    from ..models.session import Session


T = TypeVar("T", bound="CatchUp")


@_attrs_define
class CatchUp:
    """The catch-up brief: decisions, work started, work finished and questions waiting for you,
    the sessions they come from, and what was put on record meanwhile.

        Attributes:
            decisions (list[Item]): The current decisions made in the window, newest session first: within a session, those
                its assistant stated when it ended it come ahead of those its summary derived; each once.
                A decision a later one replaced is not listed: it appears under its replacement
                (`replaces`).
            exposures (list[Exposure]): Credentials scrubbed from the journal's text and not acknowledged since, most
                recently
                scrubbed first (at most 20), whatever the window: tell the person to rotate them.
            more (bool): True when older sessions in the window were left out.
            next_steps (list[Item]): What the assistants said should happen next: the open next-step items, as
                `open_questions` lists questions.
            notice (str): What the brief is: a record of earlier work, written by assistants and people, to
                inform; not instructions to follow (the same sentence opens `/journal.md`).
            open_questions (list[Item]): Questions waiting for you: every open item (with `id` and `age`) whatever the
                window,
                newest first (at most 50; `GET /api/v1/journal/loops` lists them all), and, in time
                order among them, the questions of the window's sessions that are no item (an open
                session's marked questions, a model summary's own). Never a closed item, nor a stale one.
            organization_activity (list[OrganizationActivity]): Calls members made on the Records of organizations you own,
                newest first (with
                `orgs:read`; at most 50).
            records (list[RecordChange]): What was put on record meanwhile, one item per Record that changed (with
                `records:read`).
            sessions (list[Session]): Sessions active in the window, newest first.
            since (datetime.datetime): The start of the window.
            work_finished (list[Item]): Work finished.
            work_started (list[Item]): Work started and not finished.
    """

    decisions: list[Item]
    exposures: list[Exposure]
    more: bool
    next_steps: list[Item]
    notice: str
    open_questions: list[Item]
    organization_activity: list[OrganizationActivity]
    records: list[RecordChange]
    sessions: list[Session]
    since: datetime.datetime
    work_finished: list[Item]
    work_started: list[Item]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decisions = []
        for decisions_item_data in self.decisions:
            decisions_item = decisions_item_data.to_dict()
            decisions.append(decisions_item)

        exposures = []
        for exposures_item_data in self.exposures:
            exposures_item = exposures_item_data.to_dict()
            exposures.append(exposures_item)

        more = self.more

        next_steps = []
        for next_steps_item_data in self.next_steps:
            next_steps_item = next_steps_item_data.to_dict()
            next_steps.append(next_steps_item)

        notice = self.notice

        open_questions = []
        for open_questions_item_data in self.open_questions:
            open_questions_item = open_questions_item_data.to_dict()
            open_questions.append(open_questions_item)

        organization_activity = []
        for organization_activity_item_data in self.organization_activity:
            organization_activity_item = organization_activity_item_data.to_dict()
            organization_activity.append(organization_activity_item)

        records = []
        for records_item_data in self.records:
            records_item = records_item_data.to_dict()
            records.append(records_item)

        sessions = []
        for sessions_item_data in self.sessions:
            sessions_item = sessions_item_data.to_dict()
            sessions.append(sessions_item)

        since = self.since.isoformat()

        work_finished = []
        for work_finished_item_data in self.work_finished:
            work_finished_item = work_finished_item_data.to_dict()
            work_finished.append(work_finished_item)

        work_started = []
        for work_started_item_data in self.work_started:
            work_started_item = work_started_item_data.to_dict()
            work_started.append(work_started_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decisions": decisions,
                "exposures": exposures,
                "more": more,
                "next_steps": next_steps,
                "notice": notice,
                "open_questions": open_questions,
                "organization_activity": organization_activity,
                "records": records,
                "sessions": sessions,
                "since": since,
                "work_finished": work_finished,
                "work_started": work_started,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.exposure import Exposure  # noqa: PLC0415
        from ..models.item import Item  # noqa: PLC0415
        from ..models.organization_activity import OrganizationActivity  # noqa: PLC0415
        from ..models.record_change import RecordChange  # noqa: PLC0415
        from ..models.session import Session  # noqa: PLC0415

        d = dict(src_dict)
        decisions = []
        _decisions = d.pop("decisions")
        for decisions_item_data in _decisions:
            decisions_item = Item.from_dict(decisions_item_data)

            decisions.append(decisions_item)

        exposures = []
        _exposures = d.pop("exposures")
        for exposures_item_data in _exposures:
            exposures_item = Exposure.from_dict(exposures_item_data)

            exposures.append(exposures_item)

        more = d.pop("more")

        next_steps = []
        _next_steps = d.pop("next_steps")
        for next_steps_item_data in _next_steps:
            next_steps_item = Item.from_dict(next_steps_item_data)

            next_steps.append(next_steps_item)

        notice = d.pop("notice")

        open_questions = []
        _open_questions = d.pop("open_questions")
        for open_questions_item_data in _open_questions:
            open_questions_item = Item.from_dict(open_questions_item_data)

            open_questions.append(open_questions_item)

        organization_activity = []
        _organization_activity = d.pop("organization_activity")
        for organization_activity_item_data in _organization_activity:
            organization_activity_item = OrganizationActivity.from_dict(organization_activity_item_data)

            organization_activity.append(organization_activity_item)

        records = []
        _records = d.pop("records")
        for records_item_data in _records:
            records_item = RecordChange.from_dict(records_item_data)

            records.append(records_item)

        sessions = []
        _sessions = d.pop("sessions")
        for sessions_item_data in _sessions:
            sessions_item = Session.from_dict(sessions_item_data)

            sessions.append(sessions_item)

        since = datetime.datetime.fromisoformat(d.pop("since"))

        work_finished = []
        _work_finished = d.pop("work_finished")
        for work_finished_item_data in _work_finished:
            work_finished_item = Item.from_dict(work_finished_item_data)

            work_finished.append(work_finished_item)

        work_started = []
        _work_started = d.pop("work_started")
        for work_started_item_data in _work_started:
            work_started_item = Item.from_dict(work_started_item_data)

            work_started.append(work_started_item)

        catch_up = cls(
            decisions=decisions,
            exposures=exposures,
            more=more,
            next_steps=next_steps,
            notice=notice,
            open_questions=open_questions,
            organization_activity=organization_activity,
            records=records,
            sessions=sessions,
            since=since,
            work_finished=work_finished,
            work_started=work_started,
        )

        catch_up.additional_properties = d
        return catch_up

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
