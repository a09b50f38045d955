//! `/internal/admin/*`: operator credentials only.

use crate::auth::Operator;
use crate::error::{Error, Problem, Result};
use crate::flags::Flag;
use crate::flags::actions::{self as operator_flags, FlagChange, FlagValue};
use crate::http::{ApiJson, ApiQuery};
use crate::ids::{self, Kind};
use crate::ops::Services;
use axum::extract::{Path, State};
use serde::Deserialize;

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FlagQuery {
    /// Show the values that apply to this account (`acc_…`) instead of the global ones.
    #[param(value_type = Option<crate::ids::AccountId>, example = "acc_01KYP3WV40FHEAD8X4A1JH69RE")]
    pub account: Option<String>,
}

fn account_param(text: Option<&str>) -> Result<Option<uuid::Uuid>> {
    text.map(|a| {
        ids::parse(Kind::Account, a)
            .ok_or_else(|| Error::BadRequest(format!("account {a:?} is not an account id (acc_…)")))
    })
    .transpose()
}

/// List the feature flags.
///
/// Each flag's global value, or the value that applies to one account. Operator keys only.
#[utoipa::path(
    get,
    path = "/internal/admin/feature-flags",
    operation_id = "listFeatureFlags",
    tag = "admin",
    params(FlagQuery),
    responses(
        (status = 200, description = "Every feature flag's value", body = Vec<FlagValue>),
        (status = 400, description = "`account` is not an account id, or an unknown query \
            parameter (`bad-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Not an operator credential: the console's API does not \
            exist for an account's credential (`not-found`)", body = Problem,
            content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub async fn list_flags(
    State(state): State<Services>,
    _operator: Operator,
    ApiQuery(query): ApiQuery<FlagQuery>,
) -> Result<ApiJson<Vec<FlagValue>>> {
    let account = account_param(query.account.as_deref())?;
    Ok(ApiJson(operator_flags::values(&state.db, account).await?))
}

/// A feature flag's new value.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"enabled": true, "account": "acc_01KYP3WV40FHEAD8X4A1JH69RE"}))]
pub struct SetFlag {
    /// On or off.
    pub enabled: bool,
    /// Set an override for this account (`acc_…`) instead of the global value.
    #[schema(value_type = Option<crate::ids::AccountId>)]
    pub account: Option<String>,
}

/// Turn a feature flag on or off.
///
/// Sets the global value, or an override for one account; e.g. enable `assistantJournal` for
/// an account. Every change is written to the operator log. Operator keys only.
#[utoipa::path(
    put,
    path = "/internal/admin/feature-flags/{flag}",
    operation_id = "setFeatureFlag",
    tag = "admin",
    params(("flag" = String, Path, description = "The feature flag", example = "assistantJournal")),
    request_body(content = SetFlag, content_type = "application/json",
        description = "The value, and the account it applies to"),
    responses(
        (status = 200, description = "Every feature flag's value after the change, for the \
            account if one was given", body = Vec<FlagValue>),
        (status = 400, description = "Malformed JSON, or `account` is not an account id \
            (`bad-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such feature flag, or no such account, or not an \
            operator credential: the console's API does not exist for an account's credential \
            (`not-found`)",
            body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts \
            (`payload-too-large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent with `Content-Type: application/json` \
            (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "JSON of the wrong shape: `enabled` missing, or unknown \
            fields (`invalid-body`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub async fn set_flag(
    State(state): State<Services>,
    operator: Operator,
    Path(name): Path<String>,
    ApiJson(body): ApiJson<SetFlag>,
) -> Result<ApiJson<Vec<FlagValue>>> {
    let flag = Flag::parse(&name).map_err(Error::NotFound)?;
    let account = account_param(body.account.as_deref())?;
    let change = FlagChange {
        flag,
        account,
        value: Some(body.enabled),
    };
    let values = operator_flags::change_as_key(&state.db, operator.credential_id, change).await?;
    Ok(ApiJson(values))
}
