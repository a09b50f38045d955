//! What clients learn of each tool before calling it, derived from its operation: the title and
//! the annotations from the operation's [`Spec`] (its `title` and `effect`), the output schema
//! from the operation's output type (the same `ToSchema` REST documents it with), and, for the
//! tools whose results the catch-up's view renders, `_meta.ui.resourceUri` (see
//! [`super::app`]). A tool lists its operation once, in [`surfaces`]; building the router fails
//! for a tool that does not, so no tool is listed bare.

use super::app;
use crate::ops::digests::{DeleteDigest, ListDigests};
use crate::ops::episodes::PostEpisode;
use crate::ops::journal::{
    DeleteDay, DeleteSession, EndSession, GetEntry, GetSession, ListSessions, ReadCatchUp,
    StartSession,
};
use crate::ops::loops::{CloseLoop, DismissLoop, ListLoops};
use crate::ops::records::{AppendEntry, ListEntries, ListRecords};
use crate::ops::search::SearchJournal;
use crate::ops::{Effect, JournalUse, Op, Spec};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{JsonObject, ToolAnnotations};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use utoipa::ToSchema;

/// One tool's operation: its spec, its output schema, and the MCP App view that renders its
/// results, if any.
pub(super) struct Surface {
    pub spec: Spec,
    output_schema: fn() -> JsonObject,
    view: Option<&'static str>,
}

impl Surface {
    fn of<I: Op>() -> Self
    where
        I::Output: ToSchema,
    {
        Self {
            spec: I::SPEC,
            output_schema: output_schema::<I>,
            view: None,
        }
    }

    /// Its results rendered by the view at `uri` in hosts that render MCP Apps.
    fn shown_in(self, uri: &'static str) -> Self {
        Self {
            view: Some(uri),
            ..self
        }
    }
}

/// Every tool's operation.
pub(super) fn surfaces() -> [Surface; 18] {
    [
        Surface::of::<ReadCatchUp>().shown_in(app::CATCH_UP),
        Surface::of::<StartSession>(),
        Surface::of::<EndSession>(),
        Surface::of::<ListSessions>(),
        Surface::of::<ListLoops>().shown_in(app::CATCH_UP),
        Surface::of::<CloseLoop>(),
        Surface::of::<DismissLoop>(),
        Surface::of::<GetSession>(),
        Surface::of::<GetEntry>(),
        Surface::of::<DeleteSession>(),
        Surface::of::<DeleteDay>(),
        Surface::of::<ListDigests>(),
        Surface::of::<SearchJournal>(),
        Surface::of::<DeleteDigest>(),
        Surface::of::<PostEpisode>(),
        Surface::of::<ListRecords>(),
        Surface::of::<ListEntries>(),
        Surface::of::<AppendEntry>(),
    ]
}

/// Whether an operation's tool result carries `session` beside the output: the journal's own
/// tools keep their results as they are (with full session objects); ordinary work (Records)
/// gets the conversation's session id.
pub(super) fn adds_session(spec: &Spec) -> bool {
    spec.journal == JournalUse::None
}

/// The router's tools with their titles, annotations and output schemas.
///
/// # Panics
/// When a tool has no operation in [`surfaces`], or an operation there no tool: a programming
/// error, caught by the first request of any test.
pub(super) fn describe<S: Send + Sync + 'static>(router: ToolRouter<S>) -> ToolRouter<S> {
    let surfaces = surfaces();
    let mut described = ToolRouter::new();
    for mut route in router {
        let surface = surfaces
            .iter()
            .find(|s| s.spec.tool == Some(route.name()))
            .unwrap_or_else(|| panic!("the tool {} has no operation in surfaces()", route.name()));
        route.attr.title = Some(surface.spec.title.to_owned());
        route.attr.annotations = Some(annotations(&surface.spec));
        route.attr.output_schema = Some(Arc::new((surface.output_schema)()));
        route.attr.meta = surface.view.map(app::tool_meta);
        described.add_route(route);
    }
    for surface in &surfaces {
        let tool = surface.spec.tool.expect("every surface is a tool's");
        assert!(
            described.has_route(tool),
            "surfaces() lists {tool}, no tool"
        );
    }
    described
}

/// MCP's hints, from what the operation does. Every tool touches only the journal and the
/// Records (`openWorldHint: false`); reads are read-only; writes are additive unless they
/// delete; `idempotentHint` is the spec's word (each write claiming it says why there).
pub(super) fn annotations(spec: &Spec) -> ToolAnnotations {
    let hints = ToolAnnotations::with_title(spec.title).open_world(false);
    match spec.effect {
        Effect::Reads => hints.read_only(true),
        Effect::Writes { idempotent } => hints
            .read_only(false)
            .destructive(false)
            .idempotent(idempotent),
        Effect::Deletes => hints.read_only(false).destructive(true).idempotent(true),
    }
}

/// The JSON Schema of a tool's structured content: the output type's schema at the root (an
/// object, as MCP requires), the types it refers to under `$defs`, and `session` when the tool
/// adds it. OpenAPI 3.1 schemas are JSON Schema 2020-12; only the references move, from
/// `#/components/schemas/` to `#/$defs/`, and the OpenAPI-only `example`s are left out.
fn output_schema<I: Op>() -> JsonObject
where
    I::Output: ToSchema,
{
    let mut referenced = Vec::new();
    <I::Output as ToSchema>::schemas(&mut referenced);
    let mut root = to_json_schema(serde_json::to_value(
        <I::Output as utoipa::PartialSchema>::schema(),
    ));
    let defs: Map<String, Value> = referenced
        .into_iter()
        .map(|(name, schema)| (name, to_json_schema(serde_json::to_value(schema))))
        .collect();
    let Value::Object(object) = &mut root else {
        panic!("{}'s schema is not an object", I::SPEC.id);
    };
    // A flattened output (`EndedSession`) is an `allOf` with no `type`: every output is an
    // object, and clients drop an output schema whose root does not say so.
    object
        .entry("type")
        .or_insert_with(|| Value::String("object".into()));
    if adds_session(&I::SPEC)
        && let Value::Object(properties) = object
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()))
    {
        properties.insert(
            "session".into(),
            json!({
                "type": "string",
                "description": "The session this call was recorded in (`ses_…`); pass it as \
                                `session` on later calls."
            }),
        );
    }
    if !defs.is_empty() {
        object.insert("$defs".into(), Value::Object(defs));
    }
    root.as_object().cloned().unwrap_or_default()
}

fn to_json_schema(value: Result<Value, serde_json::Error>) -> Value {
    let mut value = value.expect("a schema serializes");
    rewrite(&mut value);
    value
}

fn rewrite(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("example");
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some(name) = reference.strip_prefix("#/components/schemas/")
            {
                *reference = format!("#/$defs/{name}");
            }
            map.values_mut().for_each(rewrite);
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite),
        _ => {}
    }
}
