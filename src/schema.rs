//! One input type per operation, described once. An operation's input derives
//! `schemars::JsonSchema` (the MCP tool's input schema, with the limits the server checks named
//! by the constants it checks them with), and [`openapi_schema!`] or [`openapi_params!`] gives it
//! utoipa's traits from that same schema: the OpenAPI document describes the request body or the
//! query parameters with the same fields, descriptions and limits. (utoipa's own attributes take
//! only literals, so they could not name the constants.)

mod portable;

pub use portable::strip_null_types;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::{RefOr, Required};

/// `T`'s JSON schema (draft 2020-12, which OpenAPI 3.1 uses), nested types written in place,
/// without the root's `$schema` and `title`: what a query's parameters are read from.
pub fn json<T: JsonSchema>() -> Map<String, Value> {
    generate::<T>(|s| s.inline_subschemas = true)
}

/// `T`'s JSON schema with named nested types under `$defs` (what an MCP tool's input schema
/// holds).
pub fn json_with_defs<T: JsonSchema>() -> Map<String, Value> {
    generate::<T>(|_| {})
}

fn generate<T: JsonSchema>(settings: impl FnOnce(&mut SchemaSettings)) -> Map<String, Value> {
    let generator = SchemaSettings::draft2020_12()
        .with(settings)
        .into_generator();
    let Value::Object(mut schema) = generator.into_root_schema_for::<T>().to_value() else {
        unreachable!("a struct's schema is an object")
    };
    schema.remove("$schema");
    schema.remove("title");
    schema
}

/// `T`'s schema as an OpenAPI schema object, and the named types it refers to
/// (`#/components/schemas/…`), each as one: the components a document lists beside it.
pub fn openapi<T: JsonSchema>() -> (RefOr<Schema>, Vec<(String, RefOr<Schema>)>) {
    let mut schema = generate::<T>(|s| s.definitions_path = "/components/schemas/".into());
    let convert = |name: &str, schema: Value| -> RefOr<Schema> {
        serde_json::from_value(schema)
            .unwrap_or_else(|e| panic!("{name}: not an OpenAPI schema: {e}"))
    };
    // schemars puts the definitions where their references point.
    let defs = schema
        .remove("components")
        .and_then(|mut c| c.get_mut("schemas").map(Value::take));
    let nested = match defs {
        Some(Value::Object(defs)) => defs
            .into_iter()
            .map(|(name, def)| {
                let def = convert(&name, def);
                (name, def)
            })
            .collect(),
        _ => Vec::new(),
    };
    (
        convert(std::any::type_name::<T>(), Value::Object(schema)),
        nested,
    )
}

/// `T`'s properties as parameters `at` (the query): each one's description beside it, required
/// when the schema requires it, and its schema without `null` (a parameter is absent, never
/// null).
pub fn params<T: JsonSchema>(at: ParameterIn) -> Vec<Parameter> {
    let schema = json::<T>();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| {
            let mut property = property.as_object().cloned().unwrap_or_default();
            let description = property
                .remove("description")
                .and_then(|d| d.as_str().map(str::to_owned));
            let example = property
                .remove("examples")
                .and_then(|e| e.as_array().and_then(|e| e.first().cloned()));
            strip_null_types(&mut property);
            let schema: RefOr<Schema> = serde_json::from_value(Value::Object(property))
                .unwrap_or_else(|e| panic!("{name}: not an OpenAPI schema: {e}"));
            ParameterBuilder::new()
                .name(name)
                .parameter_in(at.clone())
                .required(match required.contains(&name.as_str()) {
                    true => Required::True,
                    false => Required::False,
                })
                .description(description)
                .example(example)
                .schema(Some(schema))
                .build()
        })
        .collect()
}

/// utoipa's `ToSchema` for operation inputs sent as a JSON body, from their `JsonSchema`,
/// under the component name the document (and the SDKs generated from it) know them by.
#[macro_export]
macro_rules! openapi_schema {
    ($($input:ty => $name:literal),+ $(,)?) => {$(
        impl utoipa::PartialSchema for $input {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $crate::schema::openapi::<$input>().0
            }
        }
        impl utoipa::ToSchema for $input {
            fn name() -> std::borrow::Cow<'static, str> {
                $name.into()
            }
            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                schemas.extend($crate::schema::openapi::<$input>().1);
            }
        }
    )+};
}

/// utoipa's `IntoParams` for operation inputs sent as query parameters, from their
/// `JsonSchema`.
#[macro_export]
macro_rules! openapi_params {
    ($($input:ty),+ $(,)?) => {$(
        impl utoipa::IntoParams for $input {
            fn into_params(
                at: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
            ) -> Vec<utoipa::openapi::path::Parameter> {
                $crate::schema::params::<$input>(
                    at().unwrap_or(utoipa::openapi::path::ParameterIn::Query),
                )
            }
        }
    )+};
}
