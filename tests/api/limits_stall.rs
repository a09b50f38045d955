//! A lock held on the shared rate-limit buckets (issue 52, 3h) stalls no request: the limit's
//! statement gives up within a quarter of a second (migration 0035), the replica counts the
//! credential against a lease of its own meanwhile (at most the limit), and readiness keeps
//! saying ready, since every replica shares the stall.

use crate::common;
use std::time::Duration;

#[tokio::test]
async fn a_locked_limit_bucket_stalls_no_request_and_readiness_stays_ready() {
    // 60 a minute: leases of 3 requests, each living 3 s.
    let app = common::spawn_app_configured(|c| c.rate_limit_per_minute = 60).await;
    let a = app.account("A", "records:read").await;
    let first = app.get(&a.token, "/api/v1/records").await;
    assert_eq!(first.status(), 200);

    // Another session holds every bucket's row, as a stuck transaction would.
    let mut holder = app.owner.begin().await.unwrap();
    sqlx::query("SELECT 1 FROM limit_buckets FOR UPDATE")
        .execute(&mut *holder)
        .await
        .unwrap();
    let mut statuses = Vec::new();
    for _ in 0..8 {
        let answer =
            tokio::time::timeout(Duration::from_secs(5), app.get(&a.token, "/api/v1/records"))
                .await
                .expect("a request answers while the bucket is locked");
        statuses.push(answer.status().as_u16());
    }
    // The lease held, then one granted locally (3 requests), then refused until it ends:
    // served, never stalled, and never more than the limit.
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 429),
        "{statuses:?}"
    );
    assert!(
        statuses.iter().filter(|s| **s == 200).count() >= 3,
        "{statuses:?}"
    );
    assert!(
        statuses.contains(&429),
        "the local lease is bounded: {statuses:?}"
    );
    let ready = tokio::time::timeout(Duration::from_secs(5), app.get("", "/readyz"))
        .await
        .expect("readiness answers");
    assert_eq!(ready.status(), 200);
    holder.rollback().await.unwrap();

    // Free again: the shared bucket counts once more (the local lease runs out first).
    tokio::time::sleep(Duration::from_secs(4)).await;
    let after = app.get(&a.token, "/api/v1/records").await;
    assert_eq!(after.status(), 200);
}
