//! Tool input schemas every client takes. schemars writes an optional property as a type list
//! with `null` (`"type": ["string", "null"]`), or as `anyOf` with a `{"type": "null"}` branch.
//! Some clients refuse both (Gemini's function declarations among them; the MCP Inspector warns
//! about each), while an optional property is already said by its absence from `required`. So
//! the `null` is taken out, everywhere in the schema (nested objects, arrays, `$defs`), and a
//! property that could be null is never listed as required. Sending `null` still works: the
//! arguments are read by serde, which takes `null` for an absent `Option`.

use serde_json::{Map, Value};

/// `schema` without `null` types: in place, recursively.
pub fn strip_null_types(schema: &mut Map<String, Value>) {
    let mut nullable = Vec::new();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if let Value::Object(property) = property {
                if without_null(property) {
                    nullable.push(name.clone());
                }
                strip_null_types(property);
            }
        }
    }
    if let Some(Value::Array(required)) = schema.get_mut("required") {
        required.retain(|r| !r.as_str().is_some_and(|r| nullable.iter().any(|n| n == r)));
        if required.is_empty() {
            schema.remove("required");
        }
    }
    without_null(schema);
    for key in ["items", "additionalProperties", "not"] {
        if let Some(Value::Object(inner)) = schema.get_mut(key) {
            strip_null_types(inner);
        }
    }
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = schema.get_mut(key) {
            for def in defs.values_mut() {
                if let Value::Object(def) = def {
                    strip_null_types(def);
                }
            }
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = schema.get_mut(key) {
            for branch in branches.iter_mut() {
                if let Value::Object(branch) = branch {
                    strip_null_types(branch);
                }
            }
        }
    }
}

/// Takes `null` out of this one schema's `type` list or `anyOf`/`oneOf` branches; whether it
/// allowed `null`.
fn without_null(schema: &mut Map<String, Value>) -> bool {
    let mut had = false;
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        let before = types.len();
        types.retain(|t| t != "null");
        had = types.len() < before;
        if had && types.len() == 1 {
            let only = types.remove(0);
            schema.insert("type".into(), only);
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = schema.get_mut(key) else {
            continue;
        };
        let before = branches.len();
        branches.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
        let removed = branches.len() < before;
        had |= removed;
        if removed && branches.len() == 1 {
            // One branch left: it is the schema (merged over what sits beside `anyOf`, such as
            // the description, which the branch does not override).
            if let Some(Value::Object(only)) = branches.pop() {
                schema.remove(key);
                for (k, v) in only {
                    schema.entry(k).or_insert(v);
                }
            }
        }
    }
    if had && schema.get("default") == Some(&Value::Null) {
        schema.remove("default");
    }
    had
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stripped(value: Value) -> Value {
        let Value::Object(mut map) = value else {
            unreachable!()
        };
        strip_null_types(&mut map);
        Value::Object(map)
    }

    #[test]
    fn optional_properties_lose_their_null_and_stay_optional() {
        let schema = json!({
            "type": "object",
            "required": ["goal", "maybe"],
            "properties": {
                "goal": {"type": "string"},
                "purpose": {"type": ["string", "null"], "maxLength": 500, "default": null},
                "maybe": {"anyOf": [{"$ref": "#/$defs/Kind"}, {"type": "null"}],
                          "description": "which"},
                "list": {"type": ["array", "null"], "items": {"type": ["integer", "null"]}},
            },
            "$defs": {"Kind": {"type": "object", "properties": {
                "at": {"type": ["string", "null"]}}}},
        });
        assert_eq!(
            stripped(schema),
            json!({
                "type": "object",
                "required": ["goal"],
                "properties": {
                    "goal": {"type": "string"},
                    "purpose": {"type": "string", "maxLength": 500},
                    "maybe": {"$ref": "#/$defs/Kind", "description": "which"},
                    "list": {"type": "array", "items": {"type": "integer"}},
                },
                "$defs": {"Kind": {"type": "object", "properties": {
                    "at": {"type": "string"}}}},
            })
        );
    }

    #[test]
    fn a_schema_without_null_is_left_as_it_is() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}},
                            "required": ["a"], "anyOf": [{"required": ["a"]}]});
        assert_eq!(stripped(schema.clone()), schema);
    }
}
