-- Scenario 3's data, as the owner, with generate_series: the account at the caps (:big, 20,000
-- sessions, 100,000 calls) among 200 other accounts (1,000 sessions and 5,000 calls each) and a
-- small account (:small, 10 sessions, 50 calls). Sessions five calls each, ended, every other
-- call wrote, one every 2.16 minutes back from an hour ago in every account (over 30 days at the
-- caps): the small account's ten sessions start when the caps account's newest ten do, so a
-- read that returns ten sessions returns the same ten-session shape for both, and any
-- difference is the history behind them. Every account has exactly five sessions whose goal
-- the search finds ("login timeout"), spread over its history; the others' goals differ, so
-- the caps account's search answers as many matches as the small account's out of 2,000 times
-- the history. :scale (bench/run's SCALE, 1 as documented) scales every account's sessions
-- (at least 10 each).
INSERT INTO accounts (account_id, name, kind)
SELECT gen_random_uuid(), 'other ' || g, 'customer' FROM generate_series(1, 200) g;

CREATE TEMP TABLE plan AS
    SELECT :'big'::uuid AS account_id, greatest(10, round(20000 * :scale))::int AS sessions
    UNION ALL SELECT :'small'::uuid, 10
    UNION ALL SELECT account_id, greatest(10, round(1000 * :scale))::int FROM accounts
     WHERE name LIKE 'other %';

CREATE TEMP TABLE gen_sessions AS
SELECT p.account_id, gen_random_uuid() AS session_id, gen_random_uuid() AS credential_id,
       now() - interval '1 hour' - g * interval '30 days' / (SELECT max(sessions) FROM plan) AS t,
       CASE WHEN g % (p.sessions / 5) = 0 THEN 'Fix the login timeout in the mobile client'
            ELSE 'Review nightly report ' || (g % 97) || ' and tidy the build scripts' END AS goal
  FROM plan p, generate_series(1, p.sessions) g;

INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, scopes,
    goal, started_at, last_activity_at, ended_at, end_reason, journal_only)
SELECT account_id, session_id, credential_id, 'explicit', 'bench', '{records:read}',
       goal, t, t + interval '5 minutes', t + interval '10 minutes', 'ended', false
  FROM gen_sessions;

INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, purpose,
    target_ids, status, ok, result_ids, wrote, journal_read, duration_ms, created_at)
SELECT s.account_id, gen_random_uuid(), s.session_id, s.credential_id, 'appendRecordEntry',
       'Put the result on record', '{}', 201, true, '{}', k % 2 = 0, false, 3,
       s.t + k * interval '1 minute'
  FROM gen_sessions s, generate_series(1, 5) k;

-- Vacuumed, analysed and checkpointed now, so that neither autovacuum nor the checkpoint the
-- new rows' WAL calls for runs under the measurements (the first one measured would pay).
VACUUM ANALYZE;
CHECKPOINT;
