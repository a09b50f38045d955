//! What a summary cost, in exact decimal dollars.
//!
//! Money is never a float here: the estimate is stored and shown (`summary_cost_usd`), and
//! `1,000 in + 200 out` must come out as exactly `$0.00055`, not `0.0005499999…`.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Prices per million tokens, as configured in n8v (not fetched from the provider).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rates {
    pub input_usd_per_mtok: Decimal,
    pub output_usd_per_mtok: Decimal,
}

impl Default for Rates {
    /// Gemini Flash-Lite's published rates: $0.25 in, $1.50 out per million tokens.
    fn default() -> Self {
        Self {
            input_usd_per_mtok: Decimal::new(25, 2),
            output_usd_per_mtok: Decimal::new(150, 2),
        }
    }
}

/// The estimated cost of `input_tokens` and `output_tokens` at `rates`, exact and normalised
/// (`0.00055`, not `0.000550`). Saturates at `Decimal::MAX` rather than panicking on absurd
/// rates, because a summary must never fail over its price tag.
pub fn cost_usd(rates: &Rates, input_tokens: u64, output_tokens: u64) -> Decimal {
    let part = |tokens: u64, rate: Decimal| {
        Decimal::from(tokens)
            .checked_mul(rate)
            .unwrap_or(Decimal::MAX)
    };
    part(input_tokens, rates.input_usd_per_mtok)
        .checked_add(part(output_tokens, rates.output_usd_per_mtok))
        .unwrap_or(Decimal::MAX)
        .checked_div(Decimal::from(1_000_000u32))
        .unwrap_or(Decimal::MAX)
        .normalize()
}
