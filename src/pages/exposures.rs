//! The journal page's banner for scrubbed credentials: "I rotated it" acknowledges one, as
//! `POST /api/v1/journal/exposures/{id}/acknowledge` does, as the signed-in user.

use super::CsrfKey;
use super::user::{PageUser, Posted};
use crate::ids::{ExposureId, TypedId};
use crate::ops::Services;
use crate::ops::exposures::AcknowledgeExposure;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::{Extension, Form};

pub async fn acknowledge(
    State(state): State<Services>,
    user: PageUser,
    Extension(key): Extension<CsrfKey>,
    Path(id): Path<String>,
    Form(form): Form<Posted>,
) -> Response {
    let input = AcknowledgeExposure {
        exposure: ExposureId::arg(&id),
    };
    user.press(&state, &key, &form.csrf, input, "/journal")
        .await
}
