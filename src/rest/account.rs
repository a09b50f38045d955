//! `DELETE /api/v1/account`: the account and every row of it, gone.

use crate::auth::Principal;
use crate::error::{Problem, Result};
use crate::http::ApiJson;
use crate::ops::Services;
use crate::ops::account::{AccountDeleted, DeleteAccount, delete_account};
use axum::extract::State;

/// Delete the account.
///
/// Deletes the account and every row of it — sessions, calls, summaries, Records and their
/// entries, organizations it owns, keys, flags, the audit log — and its queued jobs. Permanent.
/// Needs the `account:delete` scope and `confirm` set to the account's id. Not journalled (the
/// journal goes with the account); the deletion is written to the operators' log.
#[utoipa::path(
    delete,
    path = "/api/v1/account",
    operation_id = "deleteAccount",
    tag = "account",
    request_body(content = DeleteAccount, content_type = "application/json",
        description = "The account's id, to confirm"),
    responses(
        (status = 200, description = "The account is gone; what was deleted", body = AccountDeleted),
        (status = 400, description = "Malformed JSON, or `confirm` is not this account's id \
            (`bad-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The credential lacks `account:delete` (`missing-scope`) \
            or is an operator credential (`forbidden`)", body = Problem,
            content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent with `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape (`invalid-body`)", body = Problem,
            content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub async fn delete(
    State(state): State<Services>,
    principal: Principal,
    ApiJson(input): ApiJson<DeleteAccount>,
) -> Result<ApiJson<AccountDeleted>> {
    delete_account(&state, &principal.tenant, principal.key_id, input)
        .await
        .map(ApiJson)
}
