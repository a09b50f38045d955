//! The seam through which paid model calls reserve their cost. `jobs` implements it over the
//! database (one shared row per account and month); `summarize` only asks.

use rust_decimal::Decimal;

/// Reservations against a spending limit.
#[async_trait::async_trait]
pub trait Budget: Send + Sync {
    /// Reserves `estimate` (the most one model call can cost) before the call is made; `false`
    /// when the limit cannot cover it, and then the call is not made.
    async fn reserve(&self, estimate: Decimal) -> bool;
    /// Replaces a reservation with what the call really cost; `timed_out`: it timed out, and
    /// `actual` is then the reservation itself, the most it could have cost.
    async fn settle(&self, estimate: Decimal, actual: Decimal, timed_out: bool);
}

/// No limit: for providers that do not charge, and for callers that account elsewhere.
pub struct Unlimited;

#[async_trait::async_trait]
impl Budget for Unlimited {
    async fn reserve(&self, _: Decimal) -> bool {
        true
    }

    async fn settle(&self, _: Decimal, _: Decimal, _: bool) {}
}
