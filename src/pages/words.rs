//! How the pages put OAuth clients, redirect URIs and scopes into words, the same on the
//! consent page, its error page and Settings' connected assistants. What a client is and
//! where a redirect URI goes are `oauth::client`'s rules ([`identity`], [`destination`]); what a
//! scope lets its holder do is [`Scope::meaning`]'s one table. This file only shapes them for
//! the templates (which escape every value).

use crate::oauth::client::{Destination, Identity, destination, identity};
use crate::scopes::Scope;
use serde_json::{Value, json};

/// A client as the pages name it. A metadata-document client is named by the host of its
/// document (the relying party) and its `client_name` is only what it calls itself; a
/// registered client has only the name it gave itself, which the page marks as such.
/// `name` is `None` when the client was not found (only its id is known).
pub fn client(client_id: &str, name: Option<&str>) -> Value {
    match identity(client_id) {
        Identity::Document { host } => json!({
            "kind": "document",
            "title": host,
            "host": host,
            "name": name,
            "id": client_id,
        }),
        Identity::Registered => json!({
            "kind": "registered",
            "title": name.unwrap_or("an unknown client"),
            "name": name,
            "id": client_id,
        }),
    }
}

/// Where a redirect URI sends the person back: to an app on this computer (loopback), to an
/// app by its own scheme (shown with the scheme), or to a web origin.
pub fn redirect(uri: &str) -> Value {
    match destination(uri) {
        Destination::ThisComputer { shown } => json!({"kind": "computer", "shown": shown}),
        Destination::Web { shown } => json!({"kind": "web", "shown": shown}),
        Destination::App { shown, scheme } => {
            json!({"kind": "app", "shown": shown, "scheme": scheme})
        }
    }
}

/// Scopes by name, each with the sentence saying what it lets the assistant do (a name no
/// longer known keeps its name and no sentence).
pub fn scopes<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<Value> {
    names
        .into_iter()
        .map(|name| json!({"name": name, "meaning": Scope::parse(name).map(Scope::meaning)}))
        .collect()
}
