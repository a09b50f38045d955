//! The committed `openapi/openapi.json` documents each operation's answers as its spec
//! (`ops::SPECS`) says: the statuses are derived here from the spec's rules and what the
//! operation takes, independently of how the document is generated, and each refusal the spec
//! names is in its answer's description.

use n8v_journal::operation::Spec;
use n8v_journal::ops::SPECS;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Operations described by hand: the probes, the operator's, and deleting the account (not an
/// operation of `ops`: the journal goes with the account).
const WITHOUT_SPEC: &[&str] = &[
    "healthz",
    "readyz",
    "listFeatureFlags",
    "setFeatureFlag",
    "deleteAccount",
];

fn committed() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The statuses an operation with this spec answers, from the spec's rules alone.
fn derived(spec: &Spec, operation: &Value) -> BTreeSet<u16> {
    let parameters = operation["parameters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let query = parameters.iter().any(|p| p["in"] == "query");
    let journal = parameters.iter().any(|p| p["name"] == "X-Session-Id");
    let body = operation["requestBody"]["content"]["application/json"].is_object();
    let own = |status: u16| spec.errors.iter().any(|e| e.status == status);
    let mut statuses = BTreeSet::from([spec.success_status(), 401, 403, 414, 429, 500]);
    let mut add = |status: u16, when: bool| {
        if when {
            statuses.insert(status);
        }
    };
    add(400, body || query || journal || own(400));
    add(404, spec.needs_journal || journal || own(404));
    add(409, journal || own(409));
    for status in [413, 415, 422] {
        add(status, body);
    }
    for error in spec.errors {
        add(error.status, true);
    }
    statuses
}

#[test]
fn each_operations_answers_are_derived_from_its_spec() {
    let document = committed();
    let mut seen = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let id = operation["operationId"].as_str().unwrap();
            let name = format!("{id} ({} {path})", method.to_uppercase());
            let Some(spec) = SPECS.iter().find(|s| s.id == id) else {
                assert!(
                    WITHOUT_SPEC.contains(&id),
                    "{name} has no spec in ops::SPECS"
                );
                continue;
            };
            seen.insert(id);
            let responses = operation["responses"].as_object().unwrap();
            let documented: BTreeSet<u16> = responses.keys().map(|s| s.parse().unwrap()).collect();
            assert_eq!(documented, derived(spec, operation), "{name}: its statuses");
            let says = |status: u16| {
                responses[&status.to_string()]["description"]
                    .as_str()
                    .unwrap()
                    .to_lowercase()
            };
            for error in spec.errors {
                assert!(
                    says(error.status).contains(&error.when.to_lowercase()),
                    "{name} {}: does not say {:?}",
                    error.status,
                    error.when
                );
            }
            for scope in spec.scopes {
                assert!(
                    says(403).contains(&format!("`{}`", scope.as_str())),
                    "{name} 403: does not name {}",
                    scope.as_str()
                );
            }
            assert_eq!(
                says(404).contains("journal-off"),
                spec.needs_journal,
                "{name} 404: the journal flag"
            );
            for (status, response) in responses.iter().filter(|(s, _)| s.as_str() >= "400") {
                assert_eq!(
                    response["content"]["application/problem+json"]["schema"]["$ref"],
                    "#/components/schemas/Problem",
                    "{name} {status}: a problem"
                );
            }
        }
    }
    let rest: BTreeSet<&str> = SPECS
        .iter()
        .map(|s| s.id)
        .filter(|id| !["listOAuthGrants", "revokeOAuthGrant"].contains(id))
        .collect();
    assert_eq!(
        seen, rest,
        "the REST operations are the specs' (but the pages' own)"
    );
}
