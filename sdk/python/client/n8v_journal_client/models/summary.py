from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.replacing import Replacing


T = TypeVar("T", bound="Summary")


@_attrs_define
class Summary:
    """The entry stored for a session: a few sentences and the lists the catch-up brief shows.

    Attributes:
        decisions (list[str]): Decisions made.
        open_questions (list[str]): Questions waiting for you.
        summary (str): A few sentences on what the session did.
        work_finished (list[str]): Work finished.
        work_started (list[str]): Work started and not finished.
        replaces (list[Replacing] | Unset): Earlier decisions (`itm_…`) this summary says its session replaced, each
            with the
            decision of `decisions` that replaced it: the model's reading, derived (`stated: false`
            where the brief shows it), never applied. The earlier decision stays current until the
            session's assistant or the person replaces it (`session_end`'s `replaces`, a
            `Replaces itm_…:` line, or `POST /api/v1/journal/decisions/{id}/replace`). Only ids of
            decisions the model was shown, which the session's credential can read.
    """

    decisions: list[str]
    open_questions: list[str]
    summary: str
    work_finished: list[str]
    work_started: list[str]
    replaces: list[Replacing] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decisions = self.decisions

        open_questions = self.open_questions

        summary = self.summary

        work_finished = self.work_finished

        work_started = self.work_started

        replaces: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.replaces, Unset):
            replaces = []
            for replaces_item_data in self.replaces:
                replaces_item = replaces_item_data.to_dict()
                replaces.append(replaces_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decisions": decisions,
                "open_questions": open_questions,
                "summary": summary,
                "work_finished": work_finished,
                "work_started": work_started,
            }
        )
        if replaces is not UNSET:
            field_dict["replaces"] = replaces

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.replacing import Replacing  # noqa: PLC0415

        d = dict(src_dict)
        decisions = cast(list[str], d.pop("decisions"))

        open_questions = cast(list[str], d.pop("open_questions"))

        summary = d.pop("summary")

        work_finished = cast(list[str], d.pop("work_finished"))

        work_started = cast(list[str], d.pop("work_started"))

        _replaces = d.pop("replaces", UNSET)
        replaces: list[Replacing] | Unset = UNSET
        if _replaces is not UNSET:
            replaces = []
            for replaces_item_data in _replaces:
                replaces_item = Replacing.from_dict(replaces_item_data)

                replaces.append(replaces_item)

        summary = cls(
            decisions=decisions,
            open_questions=open_questions,
            summary=summary,
            work_finished=work_finished,
            work_started=work_started,
            replaces=replaces,
        )

        summary.additional_properties = d
        return summary

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
