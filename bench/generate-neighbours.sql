-- Scenarios 7 and 8's data (issue 25), as the owner: :small has 10 ended sessions of one call
-- each; :busy has 10 sessions of 10,000 calls each and :tiny 10 sessions of one call each, both
-- open (bench/run ends them later, and measures again). One call a second; every fifth goal is
-- about a login timeout (the search's matches). The sessions' counts are folded as the
-- service folds them (migration 0015): an open session up to 30 s before its stored last
-- activity (the append folds when it moves that bound), an ended one up to 30 s before its end.
-- :scale (bench/run's SCALE, 1 as documented) scales :busy's calls.
CREATE TEMP TABLE plan AS
    SELECT :'small'::uuid AS account_id, 1 AS calls, true AS ended
    UNION ALL SELECT :'busy'::uuid, greatest(1, round(10000 * :scale))::int, false
    UNION ALL SELECT :'tiny'::uuid, 1, false;

CREATE TEMP TABLE gen_sessions AS
SELECT p.account_id, gen_random_uuid() AS session_id, gen_random_uuid() AS credential_id,
       p.calls, p.ended, now() - interval '3 hours' - g * interval '10 minutes' AS t,
       CASE WHEN g % 5 = 0 THEN 'Fix the login timeout in the mobile client'
            ELSE 'Review nightly report ' || g || ' and tidy the build scripts' END AS goal
  FROM plan p, generate_series(1, 10) g;

INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, scopes,
    goal, started_at, last_activity_at, ended_at, end_reason, journal_only)
SELECT account_id, session_id, credential_id, 'explicit', 'bench', '{records:read}', goal, t,
       t + calls * interval '1 second' - interval '30 seconds',
       CASE WHEN ended THEN t + calls * interval '1 second' + interval '1 minute' END,
       CASE WHEN ended THEN 'ended' END, false
  FROM gen_sessions;

INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, purpose,
    target_ids, status, ok, result_ids, wrote, journal_read, duration_ms, created_at)
SELECT s.account_id, gen_random_uuid(), s.session_id, s.credential_id, 'appendRecordEntry',
       'Put the result on record', '{}', 201, true, '{}', k % 2 = 0, false, 3,
       s.t + k * interval '1 second'
  FROM gen_sessions s, generate_series(1, s.calls) k;

-- The open sessions' counts and purposes as the appends leave them.
\ir open-neighbours.sql
