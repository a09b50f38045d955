//! The journal page's banner for scrubbed credentials: "I rotated it" acknowledges one, as
//! `POST /api/v1/journal/exposures/{id}/acknowledge` does, as the signed-in user.

use super::CsrfKey;
use super::render::error_page;
use super::user::{PageUser, Posted, csrf_refused};
use crate::ids::{ExposureId, TypedId};
use crate::ops::Services;
use crate::ops::exposures::AcknowledgeExposure;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Form};

pub async fn acknowledge(
    State(state): State<Services>,
    user: PageUser,
    Extension(key): Extension<CsrfKey>,
    Path(id): Path<String>,
    Form(form): Form<Posted>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    let input = AcknowledgeExposure {
        exposure: ExposureId::arg(&id),
    };
    match user.run(&state, input).await.result {
        Ok(_) => Redirect::to("/journal").into_response(),
        Err(e) => error_page(&e, true),
    }
}
