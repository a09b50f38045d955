"""Contains all the data models used in inputs/outputs"""

from .account_deleted import AccountDeleted
from .account_deleted_deleted import AccountDeletedDeleted
from .append_request import AppendRequest
from .audit_entry import AuditEntry
from .author import Author
from .call import Call
from .catch_up import CatchUp
from .claude_code_hook_input import ClaudeCodeHookInput
from .close_request import CloseRequest
from .create_webhook import CreateWebhook
from .created_webhook import CreatedWebhook
from .decision_replaced import DecisionReplaced
from .decision_replaced_event import DecisionReplacedEvent
from .decision_replaced_event_type import DecisionReplacedEventType
from .decision_state import DecisionState
from .delete_account_request import DeleteAccountRequest
from .deleted import Deleted
from .deleted_digest import DeletedDigest
from .deleted_webhook import DeletedWebhook
from .delivery import Delivery
from .delivery_list import DeliveryList
from .digest import Digest
from .digest_list import DigestList
from .digest_ready import DigestReady
from .digest_ready_event import DigestReadyEvent
from .digest_ready_event_type import DigestReadyEventType
from .digest_ready_summary import DigestReadySummary
from .end_request import EndRequest
from .ended_session import EndedSession
from .endpoint_disabled import EndpointDisabled
from .endpoint_disabled_event import EndpointDisabledEvent
from .endpoint_disabled_event_type import EndpointDisabledEventType
from .entry import Entry
from .entry_list import EntryList
from .episode_entry import EpisodeEntry
from .episode_posted import EpisodePosted
from .episode_request import EpisodeRequest
from .episode_turn import EpisodeTurn
from .exposure import Exposure
from .exposure_list import ExposureList
from .exposure_seen import ExposureSeen
from .exposure_seen_event import ExposureSeenEvent
from .exposure_seen_event_type import ExposureSeenEventType
from .flag_value import FlagValue
from .handoff import Handoff
from .health import Health
from .hook_answer import HookAnswer
from .hook_context import HookContext
from .item import Item
from .item_withheld import ItemWithheld
from .item_withheld_event import ItemWithheldEvent
from .item_withheld_event_type import ItemWithheldEventType
from .listed_digest import ListedDigest
from .loop import Loop
from .loop_changed import LoopChanged
from .loop_closed_event import LoopClosedEvent
from .loop_closed_event_type import LoopClosedEventType
from .loop_list import LoopList
from .loop_opened_event import LoopOpenedEvent
from .loop_opened_event_type import LoopOpenedEventType
from .open_episode import OpenEpisode
from .open_episodes import OpenEpisodes
from .organization_activity import OrganizationActivity
from .problem import Problem
from .provisional import Provisional
from .record import Record
from .record_change import RecordChange
from .record_list import RecordList
from .replace_request import ReplaceRequest
from .replaced import Replaced
from .replacing import Replacing
from .rotated_secret import RotatedSecret
from .scrubbed_from import ScrubbedFrom
from .search_hit import SearchHit
from .search_results import SearchResults
from .session import Session
from .session_detail import SessionDetail
from .session_ended import SessionEnded
from .session_ended_event import SessionEndedEvent
from .session_ended_event_type import SessionEndedEventType
from .session_ended_handoff_type_0 import SessionEndedHandoffType0
from .session_list import SessionList
from .session_summary import SessionSummary
from .set_flag import SetFlag
from .start_request import StartRequest
from .summary import Summary
from .summary_ready import SummaryReady
from .summary_ready_event import SummaryReadyEvent
from .summary_ready_event_type import SummaryReadyEventType
from .summary_ready_summary_type_0 import SummaryReadySummaryType0
from .test_event_sent import TestEventSent
from .tier import Tier
from .token_request import TokenRequest
from .token_response import TokenResponse
from .told import Told
from .update_webhook import UpdateWebhook
from .webhook import Webhook
from .webhook_list import WebhookList
from .webhook_test import WebhookTest
from .webhook_test_event import WebhookTestEvent
from .webhook_test_event_type import WebhookTestEventType
from .withheld_mark import WithheldMark

__all__ = (
    "AccountDeleted",
    "AccountDeletedDeleted",
    "AppendRequest",
    "AuditEntry",
    "Author",
    "Call",
    "CatchUp",
    "ClaudeCodeHookInput",
    "CloseRequest",
    "CreatedWebhook",
    "CreateWebhook",
    "DecisionReplaced",
    "DecisionReplacedEvent",
    "DecisionReplacedEventType",
    "DecisionState",
    "DeleteAccountRequest",
    "Deleted",
    "DeletedDigest",
    "DeletedWebhook",
    "Delivery",
    "DeliveryList",
    "Digest",
    "DigestList",
    "DigestReady",
    "DigestReadyEvent",
    "DigestReadyEventType",
    "DigestReadySummary",
    "EndedSession",
    "EndpointDisabled",
    "EndpointDisabledEvent",
    "EndpointDisabledEventType",
    "EndRequest",
    "Entry",
    "EntryList",
    "EpisodeEntry",
    "EpisodePosted",
    "EpisodeRequest",
    "EpisodeTurn",
    "Exposure",
    "ExposureList",
    "ExposureSeen",
    "ExposureSeenEvent",
    "ExposureSeenEventType",
    "FlagValue",
    "Handoff",
    "Health",
    "HookAnswer",
    "HookContext",
    "Item",
    "ItemWithheld",
    "ItemWithheldEvent",
    "ItemWithheldEventType",
    "ListedDigest",
    "Loop",
    "LoopChanged",
    "LoopClosedEvent",
    "LoopClosedEventType",
    "LoopList",
    "LoopOpenedEvent",
    "LoopOpenedEventType",
    "OpenEpisode",
    "OpenEpisodes",
    "OrganizationActivity",
    "Problem",
    "Provisional",
    "Record",
    "RecordChange",
    "RecordList",
    "Replaced",
    "ReplaceRequest",
    "Replacing",
    "RotatedSecret",
    "ScrubbedFrom",
    "SearchHit",
    "SearchResults",
    "Session",
    "SessionDetail",
    "SessionEnded",
    "SessionEndedEvent",
    "SessionEndedEventType",
    "SessionEndedHandoffType0",
    "SessionList",
    "SessionSummary",
    "SetFlag",
    "StartRequest",
    "Summary",
    "SummaryReady",
    "SummaryReadyEvent",
    "SummaryReadyEventType",
    "SummaryReadySummaryType0",
    "TestEventSent",
    "Tier",
    "TokenRequest",
    "TokenResponse",
    "Told",
    "UpdateWebhook",
    "Webhook",
    "WebhookList",
    "WebhookTest",
    "WebhookTestEvent",
    "WebhookTestEventType",
    "WithheldMark",
)
