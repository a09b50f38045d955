-- The database's side of one journalled append, as the service sends it (issue 11): the begin
-- batch, the Record statement, the audit + call statement, COMMIT, as the application role
-- under row-level security, each client with its own key (and its implicit session). Run by
-- bench/run with -M prepared and -D acc=… rec=… role=…. As written the transaction is one
-- flight (one pipeline); `--ROUNDTRIP` marks where the service waits for an answer, and
-- bench/run makes each a pipeline boundary for the service's four round trips. `-- step:` names
-- each statement, so that bench/run can leave steps out and see what each costs.
-- A mirror of src/db/tenant.rs (the begin batch), src/records (the append) and
-- src/sessions/calls.rs (RECORD): keep them in step. (pgbench reads `:name` as a variable even
-- inside a string, so the scopes spell their colon with chr(58).) Not mirrored: the session's
-- row write (src/sessions.rs `touch`), a statement the service sends only when RECORD
-- says it is due, at most once a minute per session (one append in thousands here).
\set a random(1, 9000000000000000000)
\set c random(1, 9000000000000000000)
\set e random(1, 9000000000000000000)
\startpipeline
-- step: begin
BEGIN;
-- step: account
SELECT pg_advisory_xact_lock_shared(hashtextextended('n8v-account' || chr(58) || CAST(:acc AS text), 0));
-- step: checks
SELECT n8v_begin(CAST(:acc AS uuid), ('00000000-0000-0000-0000-' || lpad(CAST(:client_id AS text), 12, '0'))::uuid, 'assistantJournal', true);
-- step: tenant
SELECT set_config('role', CAST(:role AS text), true), set_config('app.account_id', CAST(:acc AS text), true), set_config('app.credential_id', '00000000-0000-0000-0000-' || lpad(CAST(:client_id AS text), 12, '0'), true), set_config('app.scopes', replace('records#read,records#write', '#', chr(58)), true), set_config('app.repository', '', true), set_config('app.service', '', true);
-- step: savepoint
SAVEPOINT operation;
--ROUNDTRIP
-- step: record
WITH r AS (SELECT account_id, organization_id FROM records WHERE record_id = CAST(:rec AS uuid)),
     e AS (INSERT INTO record_entries (account_id, entry_id, record_id, line, author_account_id, credential_id, created_at)
           SELECT r.account_id, lpad(to_hex(CAST(:e AS bigint)), 32, '0')::uuid, CAST(:rec AS uuid), 'bench line', CAST(:acc AS uuid),
                  ('00000000-0000-0000-0000-' || lpad(CAST(:client_id AS text), 12, '0'))::uuid, now() FROM r
           RETURNING entry_id, line, author_account_id, created_at)
SELECT r.account_id AS owner, r.organization_id AS organization, e.entry_id, e.line, e.author_account_id AS author, e.created_at FROM r, e;
--ROUNDTRIP
-- step: journal
WITH audit AS (
       INSERT INTO audit_log (account_id, audit_id, credential_id, request_id, method, path, status, created_at)
       SELECT n8v_account(), lpad(to_hex(CAST(:a AS bigint)), 32, '0')::uuid, n8v_credential(), 'req', 'POST', '/api/v1/records/x/entries', 201, now()),
     target AS (
       (SELECT f.session_id, f.last_activity_at, f.journal_only FROM (
          SELECT s.session_id, s.last_activity_at, s.journal_only, count(*) OVER () AS fresh
            FROM journal_sessions s
           WHERE s.account_id = n8v_account() AND s.credential_id = n8v_credential()
             AND s.ended_at IS NULL AND s.scopes = string_to_array(replace('records#read,records#write', '#', chr(58)), ',')
             AND s.agent = n8v_agent('pgbench')
             AND (s.kind = 'explicit' OR (s.started_at > now() - interval '12 hours' AND (s.last_activity_at > now() - interval '30 minutes'
                  OR (s.last_activity_at > now() - interval '31 minutes'
                      AND n8v_own_last_activity(s.session_id, s.last_activity_at) > now() - interval '30 minutes'))))) f
         ORDER BY CASE WHEN f.fresh > 1 THEN n8v_own_last_activity(f.session_id, f.last_activity_at) END DESC, f.session_id DESC
         LIMIT 1)),
     call AS (
       INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, purpose, target_ids, status, ok,
           input_shape, result_ids, result_count, wrote, journal_read, duration_ms, audit_id, created_at, organization_id, scopes)
       SELECT n8v_account(), lpad(to_hex(CAST(:c AS bigint)), 32, '0')::uuid, t.session_id, n8v_credential(), 'appendRecordEntry',
           'Put the result on record', ARRAY['rec_x'], 201, true, '{"body": {"line": "string"}}', ARRAY['ent_x'], NULL, true, false, 1,
           lpad(to_hex(CAST(:a AS bigint)), 32, '0')::uuid, now(), NULL, NULL
         FROM target t)
SELECT session_id, last_activity_at < now() - interval '1 minute' OR (journal_only AND NOT false) AS due FROM target;
--ROUNDTRIP
-- step: commit
COMMIT;
\endpipeline
