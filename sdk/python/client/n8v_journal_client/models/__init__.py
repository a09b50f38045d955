"""Contains all the data models used in inputs/outputs"""

from .account_deleted import AccountDeleted
from .account_deleted_deleted import AccountDeletedDeleted
from .append_request import AppendRequest
from .audit_entry import AuditEntry
from .call import Call
from .catch_up import CatchUp
from .close_request import CloseRequest
from .delete_account_request import DeleteAccountRequest
from .deleted import Deleted
from .deleted_digest import DeletedDigest
from .digest import Digest
from .digest_list import DigestList
from .end_request import EndRequest
from .ended_session import EndedSession
from .entry import Entry
from .entry_list import EntryList
from .episode_entry import EpisodeEntry
from .episode_posted import EpisodePosted
from .episode_request import EpisodeRequest
from .episode_turn import EpisodeTurn
from .exposure import Exposure
from .exposure_list import ExposureList
from .flag_value import FlagValue
from .handoff import Handoff
from .health import Health
from .item import Item
from .loop import Loop
from .loop_list import LoopList
from .organization_activity import OrganizationActivity
from .problem import Problem
from .provisional import Provisional
from .record import Record
from .record_change import RecordChange
from .record_list import RecordList
from .scrubbed_from import ScrubbedFrom
from .search_hit import SearchHit
from .search_results import SearchResults
from .session import Session
from .session_detail import SessionDetail
from .session_list import SessionList
from .session_summary import SessionSummary
from .set_flag import SetFlag
from .start_request import StartRequest
from .summary import Summary
from .token_request import TokenRequest
from .token_response import TokenResponse

__all__ = (
    "AccountDeleted",
    "AccountDeletedDeleted",
    "AppendRequest",
    "AuditEntry",
    "Call",
    "CatchUp",
    "CloseRequest",
    "DeleteAccountRequest",
    "Deleted",
    "DeletedDigest",
    "Digest",
    "DigestList",
    "EndedSession",
    "EndRequest",
    "Entry",
    "EntryList",
    "EpisodeEntry",
    "EpisodePosted",
    "EpisodeRequest",
    "EpisodeTurn",
    "Exposure",
    "ExposureList",
    "FlagValue",
    "Handoff",
    "Health",
    "Item",
    "Loop",
    "LoopList",
    "OrganizationActivity",
    "Problem",
    "Provisional",
    "Record",
    "RecordChange",
    "RecordList",
    "ScrubbedFrom",
    "SearchHit",
    "SearchResults",
    "Session",
    "SessionDetail",
    "SessionList",
    "SessionSummary",
    "SetFlag",
    "StartRequest",
    "Summary",
    "TokenRequest",
    "TokenResponse",
)
