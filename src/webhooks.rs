//! Webhooks (issue 36): an account's endpoints, the outbox of events written with what caused
//! them, Standard Webhooks signing, and delivery (the workers: `jobs::webhooks`).
//!
//! Never lost: an event and its deliveries are rows committed with their cause; a delivery is
//! leased, sent, and settled, and sent again (same `webhook-id`) until a 2xx comes back or its
//! attempts run out. Never doubled in effect: every attempt of one event carries the event's
//! id as `webhook-id`, for receivers to drop repeats.

pub mod address;
pub mod deliveries;
pub mod endpoints;
pub mod events;
pub mod payloads;
pub mod send;
pub mod signing;
