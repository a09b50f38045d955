//! Tool arguments: the operation's own input (the type REST reads too, with its descriptions and
//! limits), the id of the one thing a tool acts on where REST has it in the path, and the
//! conversation's two arguments. Doc comments become the JSON-schema descriptions an assistant
//! reads.

use crate::journal::meta::MAX_PURPOSE_CHARS;
use crate::records::MAX_LINE_CHARS;
use rmcp::schemars::{self, JsonSchema};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The two arguments every tool takes.
#[derive(Debug, Default, Clone, Deserialize, Serialize, JsonSchema)]
pub struct Conversation {
    /// Why you are making this call, in one sentence (at most 500 characters). It is kept in
    /// the journal so the next conversation knows what you did and why.
    #[serde(default)]
    #[schemars(length(max = MAX_PURPOSE_CHARS))]
    pub purpose: Option<String>,
    /// The session of this conversation (`ses_…`), as returned by `session_start` or in
    /// `_meta["n8v/session"]`. Omit it to join your recent open session or get a new one.
    #[serde(default)]
    #[schemars(with = "Option<crate::ids::SessionId>")]
    pub session: Option<String>,
}

/// A tool's arguments: `input`, the operation's own; `id`, the thing it acts on when REST names
/// it in the path ([`NoId`] otherwise); and the [`Conversation`]. Read from one JSON object:
/// the conversation's two and the id's are taken out, and the rest must be `input`'s fields
/// (an unknown argument is refused, naming the ones the tool takes).
#[derive(Debug)]
pub struct Args<T, I = NoId> {
    pub input: T,
    pub id: I,
    pub conversation: Conversation,
}

/// The id arguments of tools acting on one thing.
pub trait ToolId: DeserializeOwned + Serialize + JsonSchema {
    /// The argument's name.
    const NAME: Option<&'static str>;
}

/// No arguments of the operation's own (it acts on the id alone).
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoInput {}

/// No id argument.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
pub struct NoId {}

impl ToolId for NoId {
    const NAME: Option<&'static str> = None;
}

macro_rules! tool_id {
    ($(#[$doc:meta])* $name:ident, $field:ident, $id:literal) => {
        #[derive(Debug, Deserialize, Serialize, JsonSchema)]
        pub struct $name {
            $(#[$doc])*
            #[schemars(with = $id)]
            pub $field: String,
        }

        impl ToolId for $name {
            const NAME: Option<&'static str> = Some(stringify!($field));
        }
    };
}

tool_id!(
    /// The session (`ses_…`).
    SessionRef, session_id, "crate::ids::SessionId"
);
tool_id!(
    /// The call to read (`call_…`).
    EntryRef, entry_id, "crate::ids::CallId"
);
tool_id!(
    /// The Record (`rec_…`), from `record_list`.
    RecordRef, record_id, "crate::ids::RecordId"
);
tool_id!(
    /// The open loop (`itm_…`): an `id` of the brief's `open_questions` or `next_steps`, or of
    /// `journal_loops`.
    ItemRef, item, "crate::ids::ItemId"
);
tool_id!(
    /// The digest to delete for good (`dig_…`).
    DigestRef, digest_id, "crate::ids::DigestId"
);

impl<'de, T: DeserializeOwned, I: ToolId> Deserialize<'de> for Args<T, I> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut arguments = Map::<String, Value>::deserialize(deserializer)?;
        let mut take = |names: &[&str]| -> Value {
            let taken = names
                .iter()
                .filter_map(|name| arguments.remove_entry(*name))
                .collect();
            Value::Object(taken)
        };
        let conversation =
            Conversation::deserialize(take(&["purpose", "session"])).map_err(D::Error::custom)?;
        let id = I::deserialize(take(I::NAME.as_slice())).map_err(D::Error::custom)?;
        let input = T::deserialize(Value::Object(arguments)).map_err(D::Error::custom)?;
        Ok(Self {
            input,
            id,
            conversation,
        })
    }
}

/// The arguments as one object again (what the journal keeps the shape of).
impl<T: Serialize, I: ToolId> Serialize for Args<T, I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut arguments = Map::new();
        for part in [
            serde_json::to_value(&self.id),
            serde_json::to_value(&self.input),
            serde_json::to_value(&self.conversation),
        ] {
            if let Value::Object(part) = part.map_err(serde::ser::Error::custom)? {
                arguments.extend(part);
            }
        }
        arguments.serialize(serializer)
    }
}

/// One object schema: the id's property first, then the input's, then the conversation's.
impl<T: JsonSchema, I: ToolId> JsonSchema for Args<T, I> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Arguments", T::schema_name()).into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut defs = Map::new();
        for mut part in [
            crate::schema::json_with_defs::<I>(),
            crate::schema::json_with_defs::<T>(),
            crate::schema::json_with_defs::<Conversation>(),
        ] {
            if let Some(Value::Object(named)) = part.remove("$defs") {
                defs.extend(named);
            }
            if let Some(Value::Object(props)) = part.remove("properties") {
                properties.extend(props);
            }
            if let Some(Value::Array(names)) = part.remove("required") {
                required.extend(names);
            }
        }
        let mut schema = schemars::json_schema!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        });
        if !defs.is_empty() {
            schema.insert("$defs".into(), Value::Object(defs));
        }
        schema
    }
}

/// The longest string any tool argument may be (the longest field, `line`, is 4,000
/// characters; ids, cursors, filters and times are far shorter). Longer arguments are refused
/// before anything runs, so no oversized text reaches the journal or a model.
pub const MAX_ARGUMENT_CHARS: usize = MAX_LINE_CHARS;

/// Refuses any string argument, or string in a list argument, longer than
/// [`MAX_ARGUMENT_CHARS`], naming it.
pub fn check_lengths(arguments: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    let Value::Object(map) = arguments else {
        return Ok(());
    };
    let too_long = |value: &Value| matches!(value, Value::String(text) if text.chars().count() > MAX_ARGUMENT_CHARS);
    for (name, value) in map {
        let long = match value {
            Value::Array(items) => items.iter().any(too_long),
            value => too_long(value),
        };
        if long {
            return Err(format!(
                "`{name}` is longer than {MAX_ARGUMENT_CHARS} characters; shorten it"
            ));
        }
    }
    Ok(())
}
