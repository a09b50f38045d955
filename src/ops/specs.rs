//! Every public operation's spec, in one list: the OpenAPI document finds each operation's
//! spec here by its id, to derive its documented answers (`http::openapi::responses`).

use super::{Op, Spec};
use super::{
    audit, decisions, digests, episodes, export, exposures, hooks, journal, loops, oauth, records,
    search, token, webhooks,
};

pub const SPECS: &[Spec] = &[
    journal::StartSession::SPEC,
    journal::EndSession::SPEC,
    journal::ListSessions::SPEC,
    journal::GetSession::SPEC,
    journal::GetEntry::SPEC,
    journal::DeleteSession::SPEC,
    journal::DeleteDay::SPEC,
    journal::ReadCatchUp::SPEC,
    journal::ReadMarkdown::SPEC,
    search::SearchJournal::SPEC,
    export::ExportJournal::SPEC,
    loops::ListLoops::SPEC,
    loops::CloseLoop::SPEC,
    loops::DismissLoop::SPEC,
    decisions::ReplaceDecision::SPEC,
    digests::ListDigests::SPEC,
    digests::DeleteDigest::SPEC,
    episodes::PostEpisode::SPEC,
    episodes::ListOpenEpisodes::SPEC,
    exposures::ListExposures::SPEC,
    exposures::AcknowledgeExposure::SPEC,
    hooks::ClaudeCodeHook::SPEC,
    audit::GetAuditEntry::SPEC,
    records::ListRecords::SPEC,
    records::ListEntries::SPEC,
    records::AppendEntry::SPEC,
    token::MintToken::SPEC,
    webhooks::CreateWebhook::SPEC,
    webhooks::ListWebhooks::SPEC,
    webhooks::GetWebhook::SPEC,
    webhooks::UpdateWebhook::SPEC,
    webhooks::DeleteWebhook::SPEC,
    webhooks::RotateWebhookSecret::SPEC,
    webhooks::ListDeliveries::SPEC,
    webhooks::TakeOverWebhook::SPEC,
    webhooks::SendTestEvent::SPEC,
    oauth::ListGrants::SPEC,
    oauth::RevokeGrant::SPEC,
];
