//! Credentials and flag values, kept in memory for a few seconds so that a request does not
//! spend a round trip on each. Never trusted alone: the tenant transaction's first statement
//! (`n8v_begin`, in the same round trip as `BEGIN`) refuses a credential revoked since it was
//! cached and a flag whose value changed, so a revocation or a flag change takes effect on the
//! very next request, here or on any other instance. `LISTEN n8v_invalidate` (the triggers of
//! migration 0010 send it) drops the changed entries at once, so that refusal stays rare.

use super::CredentialRow;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use uuid::Uuid;

/// How long an entry is used before it is read again.
pub const TTL: Duration = Duration::from_secs(5);
/// Past this many entries the cache starts over (no eviction bookkeeping on the hot path).
const MAX_ENTRIES: usize = 10_000;
/// The channel the invalidation triggers notify.
pub const CHANNEL: &str = "n8v_invalidate";

#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) enum CredentialKey {
    Hash(Vec<u8>),
    Id(Uuid, Uuid),
}

/// A flag's value for an account, and when it was read.
type Flags = HashMap<(Uuid, &'static str), (bool, Instant)>;

#[derive(Default)]
pub struct Cache {
    credentials: Mutex<HashMap<CredentialKey, (CredentialRow, Instant)>>,
    flags: Mutex<Flags>,
}

impl Cache {
    pub(crate) fn credential(&self, key: &CredentialKey) -> Option<CredentialRow> {
        let map = self.credentials.lock().expect("cache lock");
        map.get(key)
            .filter(|(_, at)| at.elapsed() < TTL)
            .map(|(row, _)| row.clone())
    }

    /// Keeps a live account credential (never an operator's, never a revoked one).
    pub(crate) fn keep_credential(&self, key: CredentialKey, row: &CredentialRow) {
        if row.operator || row.revoked_at.is_some() || row.account_id.is_none() {
            return;
        }
        let mut map = self.credentials.lock().expect("cache lock");
        if map.len() >= MAX_ENTRIES {
            map.clear();
        }
        map.insert(key, (row.clone(), Instant::now()));
    }

    pub fn forget_credential(&self, credential: Uuid) {
        self.credentials
            .lock()
            .expect("cache lock")
            .retain(|_, (row, _)| row.credential_id != credential);
    }

    pub fn flag(&self, account: Uuid, flag: &'static str) -> Option<bool> {
        let map = self.flags.lock().expect("cache lock");
        map.get(&(account, flag))
            .filter(|(_, at)| at.elapsed() < TTL)
            .map(|(on, _)| *on)
    }

    pub fn keep_flag(&self, account: Uuid, flag: &'static str, on: bool) {
        let mut map = self.flags.lock().expect("cache lock");
        if map.len() >= MAX_ENTRIES {
            map.clear();
        }
        map.insert((account, flag), (on, Instant::now()));
    }

    pub fn forget_flags(&self) {
        self.flags.lock().expect("cache lock").clear();
    }

    pub fn clear(&self) {
        self.credentials.lock().expect("cache lock").clear();
        self.forget_flags();
    }

    /// Applies one notification payload (`credential:<uuid>` or `flags`).
    pub fn invalidate(&self, payload: &str) {
        match payload.strip_prefix("credential:").map(Uuid::parse_str) {
            Some(Ok(id)) => self.forget_credential(id),
            _ if payload == "flags" => self.forget_flags(),
            _ => self.clear(),
        }
    }
}

/// Listens for invalidations on a connection of its own (`pool`, one connection) until that
/// pool closes. Whenever the connection is lost, notifications may have been missed: the cache
/// is emptied and the listener reconnects.
pub(crate) async fn listen(pool: sqlx::PgPool, cache: std::sync::Arc<Cache>) {
    while !pool.is_closed() {
        let mut listener = match sqlx::postgres::PgListener::connect_with(&pool).await {
            Ok(l) => l,
            Err(_) => {
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if listener.listen(CHANNEL).await.is_err() {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        cache.clear();
        loop {
            match listener.try_recv().await {
                Ok(Some(notification)) => cache.invalidate(notification.payload()),
                // Lost and (on the next call) reconnected: anything may have changed meanwhile.
                Ok(None) => cache.clear(),
                Err(_) => break,
            }
        }
        cache.clear();
        if !pool.is_closed() {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(credential: Uuid) -> CredentialRow {
        CredentialRow {
            account_id: Some(Uuid::nil()),
            credential_id: credential,
            scopes: vec![],
            repository: None,
            revoked_at: None,
            operator: false,
        }
    }

    #[test]
    fn notifications_drop_the_named_credential_and_the_flags() {
        let cache = Cache::default();
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        cache.keep_credential(CredentialKey::Hash(vec![1]), &row(a));
        cache.keep_credential(CredentialKey::Id(Uuid::nil(), b), &row(b));
        cache.keep_flag(Uuid::nil(), "assistantJournal", true);
        cache.invalidate(&format!("credential:{a}"));
        assert!(cache.credential(&CredentialKey::Hash(vec![1])).is_none());
        assert!(
            cache
                .credential(&CredentialKey::Id(Uuid::nil(), b))
                .is_some()
        );
        assert_eq!(cache.flag(Uuid::nil(), "assistantJournal"), Some(true));
        cache.invalidate("flags");
        assert_eq!(cache.flag(Uuid::nil(), "assistantJournal"), None);
    }

    #[test]
    fn operators_and_revoked_credentials_are_never_kept() {
        let cache = Cache::default();
        let mut operator = row(Uuid::new_v4());
        operator.operator = true;
        cache.keep_credential(CredentialKey::Hash(vec![2]), &operator);
        let mut revoked = row(Uuid::new_v4());
        revoked.revoked_at = Some(chrono::Utc::now());
        cache.keep_credential(CredentialKey::Hash(vec![3]), &revoked);
        assert!(cache.credential(&CredentialKey::Hash(vec![2])).is_none());
        assert!(cache.credential(&CredentialKey::Hash(vec![3])).is_none());
    }
}
