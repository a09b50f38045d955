//! The journal page's item buttons: closing one of your own items, or dismissing a member's,
//! from its form (the list itself is on the timeline, `journal::timeline`), and releasing or
//! deleting a withheld one. The same operations as `POST /api/v1/journal/loops/{id}/close` and
//! `…/dismiss`, as the signed-in user; release and delete are the person's own, page-only acts
//! (`chats:release`; see `ops::releases`).

use super::CsrfKey;
use super::user::PageUser;
use crate::ops::loops::{CloseLoop, DismissLoop};
use crate::ops::releases::{DeleteItem, ReleaseItem};
use crate::ops::{Op, Services};
use axum::Extension;
use axum::Form;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;

/// Every item button's form.
#[derive(Deserialize)]
pub struct ItemForm {
    #[serde(default)]
    csrf: String,
    /// The item (`itm_…`).
    target: String,
    /// Closing only: `done`, `answered` or `dropped`.
    #[serde(default)]
    state: String,
}

/// An item's button: the operation it runs, and where the page goes after it.
pub trait ItemButton: Op {
    const BACK: &'static str;
    fn on(form: ItemForm) -> Self;
}

/// `POST /journal/loops/close`.
impl ItemButton for CloseLoop {
    const BACK: &'static str = "/journal?closed=1#loops";
    fn on(form: ItemForm) -> Self {
        CloseLoop {
            item: form.target,
            state: form.state,
        }
    }
}

/// `POST /journal/loops/dismiss`: a member's item, out of the signed-in account's view.
impl ItemButton for DismissLoop {
    const BACK: &'static str = "/journal?dismissed=1#loops";
    fn on(form: ItemForm) -> Self {
        DismissLoop { item: form.target }
    }
}

/// `POST /journal/items/release`: a withheld item, handed over from now on.
impl ItemButton for ReleaseItem {
    const BACK: &'static str = "/journal?released=1#withheld";
    fn on(form: ItemForm) -> Self {
        ReleaseItem { item: form.target }
    }
}

/// `POST /journal/items/delete`: a withheld item, deleted for good.
impl ItemButton for DeleteItem {
    const BACK: &'static str = "/journal?deleted_item=1#withheld";
    fn on(form: ItemForm) -> Self {
        DeleteItem { item: form.target }
    }
}

/// Runs one item's button once the form's CSRF token holds.
pub async fn press<B: ItemButton>(
    State(state): State<Services>,
    user: PageUser,
    Extension(key): Extension<CsrfKey>,
    Form(mut form): Form<ItemForm>,
) -> Response {
    let token = std::mem::take(&mut form.csrf);
    user.press(&state, &key, &token, B::on(form), B::BACK).await
}
