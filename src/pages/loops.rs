//! The journal page's open loops: closing one of your own, or dismissing a member's, from its
//! form (the list itself is on the timeline, `journal::timeline`). The same operations as
//! `POST /api/v1/journal/loops/{id}/close` and `…/dismiss`, as the signed-in user.

use super::CsrfKey;
use super::render::error_page;
use super::user::{PageUser, csrf_refused};
use crate::ops::Services;

use crate::ops::loops::{CloseLoop, DismissLoop};
use crate::ops::releases::{DeleteItem, ReleaseItem};
use axum::Extension;
use axum::Form;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct CloseForm {
    #[serde(default)]
    csrf: String,
    /// The item (`itm_…`).
    target: String,
    /// `done`, `answered` or `dropped`.
    state: String,
}

/// Closes one item from its form on the journal page.
pub async fn close(
    State(state): State<Services>,
    user: PageUser,
    Extension(key): Extension<CsrfKey>,
    Form(form): Form<CloseForm>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    let input = CloseLoop {
        item: form.target,
        state: form.state,
    };
    match user.run(&state, input).await.result {
        Ok(_) => Redirect::to("/journal?closed=1#loops").into_response(),
        Err(e) => error_page(&e, true),
    }
}

#[derive(Deserialize)]
pub struct DismissForm {
    #[serde(default)]
    csrf: String,
    /// The member's item (`itm_…`).
    target: String,
}

/// Dismisses a member's item from the signed-in account's view, from its form on the page.
pub async fn dismiss(
    State(state): State<Services>,
    user: PageUser,
    Extension(key): Extension<CsrfKey>,
    Form(form): Form<DismissForm>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    let input = DismissLoop { item: form.target };
    match user.run(&state, input).await.result {
        Ok(_) => Redirect::to("/journal?dismissed=1#loops").into_response(),
        Err(e) => error_page(&e, true),
    }
}

#[derive(Deserialize)]
pub struct ItemForm {
    #[serde(default)]
    csrf: String,
    /// The withheld item (`itm_…`).
    target: String,
}

/// Releases a withheld item, from its form on the journal page: the person's own act, in the
/// signed-in session only (`chats:release`; see `ops::releases`).
pub async fn release(
    State(state): State<Services>,
    user: PageUser,
    Extension(key): Extension<CsrfKey>,
    Form(form): Form<ItemForm>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    let input = ReleaseItem { item: form.target };
    match user.run(&state, input).await.result {
        Ok(_) => Redirect::to("/journal?released=1#withheld").into_response(),
        Err(e) => error_page(&e, true),
    }
}

/// Deletes a withheld item for good, from its form on the journal page.
pub async fn delete(
    State(state): State<Services>,
    user: PageUser,
    Extension(key): Extension<CsrfKey>,
    Form(form): Form<ItemForm>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    let input = DeleteItem { item: form.target };
    match user.run(&state, input).await.result {
        Ok(_) => Redirect::to("/journal?deleted_item=1#withheld").into_response(),
        Err(e) => error_page(&e, true),
    }
}
