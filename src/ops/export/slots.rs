//! How many exports may stream at once. An export holds a tenant connection and a snapshot for
//! as long as its reader takes to read it, so without a bound one account's exports (stalled or
//! not) could hold every connection of the pool and starve every other tenant (issue 34).
//!
//! Counted in this process, which is what owns the pool being protected: each API replica has
//! its own pool and its own count. A slot is taken before the export is recorded and goes back
//! when its stream ends, however it ends (finished, failed, the reader gone or stalled).

use crate::config::ExportLimits;
use crate::error::{Error, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use uuid::Uuid;

/// The exports streaming in this process, per account.
#[derive(Debug)]
pub struct ExportSlots {
    limits: ExportLimits,
    streaming: Mutex<Streaming>,
}

#[derive(Debug, Default)]
struct Streaming {
    total: u32,
    by_account: HashMap<Uuid, u32>,
}

/// One export's place; dropping it gives the place back.
#[derive(Debug)]
pub struct ExportSlot {
    slots: Arc<ExportSlots>,
    account: Uuid,
}

impl ExportSlots {
    pub fn new(limits: ExportLimits) -> Arc<Self> {
        Arc::new(Self {
            limits,
            streaming: Mutex::default(),
        })
    }

    pub fn limits(&self) -> ExportLimits {
        self.limits
    }

    /// A place for one more of `account`'s exports: `429` when the account already streams its
    /// share, `503` when the process streams as many as it may; both say when to retry.
    pub fn take(self: &Arc<Self>, account: Uuid) -> Result<ExportSlot> {
        let mut streaming = self.streaming.lock().unwrap_or_else(|e| e.into_inner());
        let own = streaming.by_account.get(&account).copied().unwrap_or(0);
        let retry_after_secs = self.limits.stall.as_secs().clamp(1, 30);
        if own >= self.limits.per_account {
            return Err(Error::Busy {
                detail: format!(
                    "this account already has {own} exports streaming, as many as it may at \
                     once (N8V_EXPORTS_PER_ACCOUNT); retry once one of them has finished"
                ),
                own: true,
                retry_after_secs,
            });
        }
        if streaming.total >= self.limits.per_process {
            return Err(Error::Busy {
                detail: format!(
                    "{} exports are streaming on this server, as many as it runs at once \
                     (N8V_EXPORTS_PER_PROCESS); retry in a little while",
                    streaming.total
                ),
                own: false,
                retry_after_secs,
            });
        }
        streaming.total += 1;
        *streaming.by_account.entry(account).or_default() += 1;
        Ok(ExportSlot {
            slots: self.clone(),
            account,
        })
    }

    #[cfg(test)]
    fn streaming(&self) -> u32 {
        self.streaming.lock().unwrap().total
    }
}

impl Drop for ExportSlot {
    fn drop(&mut self) {
        let mut streaming = self
            .slots
            .streaming
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        streaming.total = streaming.total.saturating_sub(1);
        if let Some(own) = streaming.by_account.get_mut(&self.account) {
            *own -= 1;
            if *own == 0 {
                streaming.by_account.remove(&self.account);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn limits(per_process: u32, per_account: u32) -> ExportLimits {
        ExportLimits {
            per_process,
            per_account,
            stall: Duration::from_secs(5),
            longest: Duration::from_secs(60),
        }
    }

    #[test]
    fn an_account_gets_its_share_and_the_process_its_total() {
        let slots = ExportSlots::new(limits(3, 2));
        let (a, b, c) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        let a1 = slots.take(a).unwrap();
        let _a2 = slots.take(a).unwrap();
        let own = slots.take(a).unwrap_err();
        assert_eq!(own.status(), 429, "{own}");
        let _b1 = slots.take(b).unwrap();
        let full = slots.take(c).unwrap_err();
        assert_eq!(full.status(), 503, "{full}");
        drop(a1);
        assert_eq!(slots.streaming(), 2);
        let _c1 = slots
            .take(c)
            .expect("a finished export gives its place back");
        assert!(slots.take(a).is_err(), "the process is full again");
    }
}
