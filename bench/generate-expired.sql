-- Scenario 4's data, as the owner: 1,000,000 calls past the 90-day call retention, in 10
-- accounts of 2,000 sessions with 50 calls each (within the caps, so retention expires them,
-- it does not cap them). The sessions themselves are kept (400 days). :scale (bench/run's SCALE,
-- 1 as documented) scales the sessions.
INSERT INTO accounts (account_id, name, kind)
SELECT gen_random_uuid(), 'expired ' || g, 'customer' FROM generate_series(1, 10) g;

CREATE TEMP TABLE gen_sessions AS
SELECT a.account_id, gen_random_uuid() AS session_id, gen_random_uuid() AS credential_id,
       now() - interval '100 days' - g * interval '1 minute' AS t
  FROM accounts a, generate_series(1, greatest(1, round(2000 * :scale))::int) g WHERE a.name LIKE 'expired %';

INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, scopes,
    started_at, last_activity_at, ended_at, end_reason, journal_only)
SELECT account_id, session_id, credential_id, 'explicit', 'expired', '{records:read}',
       t, t + interval '50 seconds', t + interval '60 seconds', 'ended', false
  FROM gen_sessions;

INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, purpose,
    target_ids, status, ok, result_ids, wrote, journal_read, duration_ms, created_at)
SELECT s.account_id, gen_random_uuid(), s.session_id, s.credential_id, 'appendRecordEntry',
       'Put the result on record', '{}', 201, true, '{}', true, false, 3,
       s.t + k * interval '1 second'
  FROM gen_sessions s, generate_series(1, 50) k;

-- Vacuumed, analysed and checkpointed now, so that neither autovacuum nor the checkpoint the
-- new rows' WAL calls for runs under the measurements (the first one measured would pay).
VACUUM ANALYZE;
CHECKPOINT;
