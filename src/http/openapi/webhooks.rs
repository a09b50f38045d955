//! The document's `webhooks` section (OpenAPI 3.1): one entry per event type, a `POST` to the
//! receiver whose body is the event (`{"type", "timestamp", "data"}`, `data` typed per event),
//! signed with the Standard Webhooks headers. utoipa derives no webhooks, so they are added
//! here, from the same payload types the events are written with.

use crate::webhooks::events::{EventType, TEST_EVENT};
use crate::webhooks::payloads::{
    DecisionReplaced, DigestReady, EndpointDisabled, ExposureSeen, ItemWithheld, LoopChanged,
    SessionEnded, SummaryReady, WebhookTest,
};
use utoipa::ToSchema;
use utoipa::openapi::path::{
    HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn, PathItem,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{
    ContentBuilder, OpenApi, PathsBuilder, Ref, RefOr, Required, ResponseBuilder, Schema,
};

/// Each event type, its `data` schema's name and schema, and when it is sent: the types an
/// endpoint asks for, and the test event.
fn events() -> Vec<(&'static str, &'static str, RefOr<Schema>, &'static str)> {
    fn of<T: ToSchema>() -> (&'static str, RefOr<Schema>) {
        (T::name().into_owned().leak(), T::schema())
    }
    let rows = [
        (
            EventType::SessionEnded,
            of::<SessionEnded>(),
            "A session closed: ended, swept quiet after two hours, or retired.",
        ),
        (
            EventType::SummaryReady,
            of::<SummaryReady>(),
            "A closed session's summary was stored.",
        ),
        (
            EventType::LoopOpened,
            of::<LoopChanged>(),
            "An open question or next step was opened when its session closed.",
        ),
        (
            EventType::LoopClosed,
            of::<LoopChanged>(),
            "An open question or next step was closed (done, answered or dropped).",
        ),
        (
            EventType::DecisionReplaced,
            of::<DecisionReplaced>(),
            "A decision was replaced by a later one (session_end's replaces, a marked \
             `Replaces itm_…:` line, or the replace operation).",
        ),
        (
            EventType::ExposureSeen,
            of::<ExposureSeen>(),
            "A credential was scrubbed in a session: the rule and its label, never the credential.",
        ),
        (
            EventType::DigestReady,
            of::<DigestReady>(),
            "A week's or month's digest was stored.",
        ),
        (
            EventType::EndpointDisabled,
            of::<EndpointDisabled>(),
            "An endpoint was disabled after a run of failed attempts.",
        ),
        (
            EventType::ItemWithheld,
            of::<ItemWithheld>(),
            "An item was opened whose text the rules withhold from every automatic hand-off: \
             its id and the rule, never its text.",
        ),
    ];
    let (test_name, test_schema) = of::<WebhookTest>();
    rows.into_iter()
        .map(|(kind, (name, schema), when)| (kind.as_str(), name, schema, when))
        .chain([(
            TEST_EVENT,
            test_name,
            test_schema,
            "A test event, sent to one endpoint when asked (POST /api/v1/webhooks/{id}/test or \
             Settings), whatever events it asked for.",
        )])
        .collect()
}

fn header(name: &str, description: &str) -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Header)
        .required(Required::True)
        .description(Some(description))
        .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
        .build()
}

/// The envelope of one event type, `data` referring to its schema.
fn envelope(kind: &str, data: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .property(
            "type",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([kind])),
        )
        .property(
            "timestamp",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime))),
        )
        .property("data", Ref::from_schema_name(data))
        .required("type")
        .required("timestamp")
        .required("data")
}

/// Adds the `webhooks` section, and the events' schemas to the components.
pub fn add_webhooks(document: &mut OpenApi) {
    let mut paths = PathsBuilder::new();
    let components = document.components.get_or_insert_with(Default::default);
    for (kind, name, schema, when) in events() {
        components.schemas.insert(name.to_owned(), schema);
        // `SessionEndedEvent`, `LoopOpenedEvent`, …: the type's name in CamelCase.
        let event: String = kind
            .split('.')
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .chain(["Event".to_owned()])
            .collect();
        components
            .schemas
            .insert(event.clone(), envelope(kind, name).into());
        let body = RequestBodyBuilder::new()
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name(&event)))
                    .build(),
            )
            .required(Some(Required::True))
            .build();
        let operation = OperationBuilder::new()
            .summary(Some(format!("{kind}: {when}")))
            .description(Some(
                "Sent to the endpoints that asked for this event type. Verify the signature with \
                 a Standard Webhooks library and the endpoint's secret; drop a `webhook-id` seen \
                 before (a retry). Answer any 2xx within the timeout; anything else is retried \
                 with backoff.",
            ))
            .operation_id(Some(kind.replace('.', "_")))
            .tag("webhooks")
            .parameter(header("webhook-id", "The event's id (`evt_…`), the same on every attempt"))
            .parameter(header("webhook-timestamp", "When this attempt was signed, in Unix seconds"))
            .parameter(header(
                "webhook-signature",
                "`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per secret signing (space-separated)",
            ))
            .request_body(Some(body))
            .response(
                "200",
                ResponseBuilder::new().description("Any 2xx acknowledges the event").build(),
            );
        paths = paths.path(kind, PathItem::new(HttpMethod::Post, operation));
    }
    document.webhooks = Some(paths.build());
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_event_type_is_documented() {
        let mut document = utoipa::openapi::OpenApiBuilder::new().build();
        super::add_webhooks(&mut document);
        let webhooks = document.webhooks.unwrap();
        for kind in crate::webhooks::events::EventType::ALL {
            assert!(
                webhooks.paths.contains_key(kind.as_str()),
                "{}",
                kind.as_str()
            );
        }
        assert!(webhooks.paths.contains_key(super::TEST_EVENT));
    }
}
