-- A journalled append in one statement (issue 56).
--
-- An append took five round trips: `BEGIN; SAVEPOINT`, the tenant's opening, the Record
-- statement, the audit + call statement and `COMMIT` (sqlx has no pipelining, and the house
-- builds no statement as text). The service's time went mostly to those round trips (the
-- sockets, TLS and wake-ups of each), not to its own work.
--
-- Now the append's two statements live here, each in a function of its own that the
-- general path calls too (one text for both paths, its plan cached per connection like a
-- prepared statement's), and `n8v_append_journalled` runs the whole append as one statement
-- in its own (implicit) transaction: the opening, the Record statement and the audit + call
-- statement. Either all of it commits or none of it does. Whatever it does not handle (a
-- Record not visible, no fresh session to join, a session row due to be written, a named
-- session that is not the caller's open one) it refuses with SQLSTATE N8VSL before anything
-- commits, and the service runs the general path, which handles every case.

-- The Record statement (src/records.rs `open_and_append`): the Record as the caller may see
-- it, and the entry, whose policy checks that Record again. No row: no such Record visible.
CREATE FUNCTION n8v_append_entry(uuid, uuid, text, uuid, uuid, timestamptz)
RETURNS TABLE (owner uuid, organization uuid, entry_id uuid, line text, author uuid,
               created_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
RETURN QUERY WITH r AS (SELECT account_id, organization_id FROM records WHERE record_id = $1),
     e AS (INSERT INTO record_entries (account_id, entry_id, record_id, line,
               author_account_id, credential_id, created_at)
           SELECT r.account_id, $2, $1, $3, $4, $5, $6 FROM r
           RETURNING entry_id, line, author_account_id, created_at)
     SELECT r.account_id, r.organization_id, e.entry_id, e.line, e.author_account_id,
            e.created_at
       FROM r, e;
END
$$;

-- The audit + call statement (src/sessions/calls.rs `record`, where its parameters are
-- described): the audit entry (when $1), then the call (when $8) in the named session ($9) or
-- the caller's fresh one. Answers the session the call was recorded in, and whether its row is
-- due to be written; no row when there was no call, or no fresh session to record it in.
CREATE FUNCTION n8v_record_call(
    boolean, uuid, text, text, text, integer, timestamptz, boolean, uuid, text[], timestamptz,
    timestamptz, timestamptz, uuid, text, text, text[], integer, jsonb, text[], integer, boolean,
    boolean, integer, timestamptz, uuid, timestamptz, text, integer)
RETURNS TABLE (session_id uuid, due boolean)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
RETURN QUERY WITH audit AS (
       INSERT INTO audit_log (account_id, audit_id, credential_id, request_id, method, path,
           status, created_at)
       SELECT n8v_account(), $2, n8v_credential(), $3, $4, $5, $6, $7 WHERE $1),
     target AS (
       SELECT s.session_id, s.last_activity_at, s.journal_only FROM journal_sessions s
        WHERE $8 AND s.account_id = n8v_account() AND s.session_id = $9
       UNION ALL
       (SELECT f.session_id, f.last_activity_at, f.journal_only FROM (
          SELECT s.session_id, s.last_activity_at, s.journal_only, count(*) OVER () AS fresh
            FROM journal_sessions s
           WHERE $8 AND $9 IS NULL
             AND s.account_id = n8v_account() AND s.credential_id = n8v_credential()
             AND s.ended_at IS NULL AND s.scopes = $10 AND s.agent = n8v_agent($28)
             AND (s.kind = 'explicit' OR (s.started_at > $13 AND (s.last_activity_at > $11
                  OR (s.last_activity_at > $12
                      AND n8v_own_last_activity(s.session_id, s.last_activity_at) > $11))))) f
         ORDER BY CASE WHEN f.fresh > 1
                       THEN n8v_own_last_activity(f.session_id, f.last_activity_at) END DESC,
                  f.session_id DESC
         LIMIT 1)),
     call AS (
       INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation,
           purpose, target_ids, status, ok, input_shape, result_ids, result_count, wrote,
           journal_read, duration_ms, audit_id, created_at, organization_id, scopes,
           result_chars)
       SELECT n8v_account(), $14, t.session_id, n8v_credential(), $15, $16, $17, $18, $18 < 400,
           $19, $20, $21, $22, $23, $24, $2, $25, $26,
           CASE WHEN $26 IS NULL THEN NULL ELSE n8v_scopes() END, $29
         FROM target t)
     SELECT t.session_id, t.last_activity_at < $27 OR (t.journal_only AND NOT $23) FROM target t;
END
$$;

-- Both run as the application role only (the general path's transaction, or the one-statement
-- append after its opening has set the role).
REVOKE ALL ON FUNCTION n8v_append_entry(uuid, uuid, text, uuid, uuid, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_record_call(
    boolean, uuid, text, text, text, integer, timestamptz, boolean, uuid, text[], timestamptz,
    timestamptz, timestamptz, uuid, text, text, text[], integer, jsonb, text[], integer, boolean,
    boolean, integer, timestamptz, uuid, timestamptz, text, integer) FROM PUBLIC;

-- The whole append, run by the login role (through PUBLIC) as one statement: invoker's
-- rights, like n8v_open_tenant (migration 0026), so it does only what its caller could do
-- statement by statement. The opening sets the role (and takes the account's lock, checks
-- the credential and the flag, sets the tenant); PL/pgSQL plans each later statement when it
-- reaches it, as that role, under row-level security. Its parameters: the opening's (as
-- n8v_open_tenant takes them; p_expected is also whether the journal records the call), the
-- append's, the audit entry's, then the call's (see n8v_record_call). The call's duration is
-- the service's part so far and the database's part of this statement.
CREATE FUNCTION n8v_append_journalled(
    p_role text, p_idle text, p_lock text, p_account uuid, p_credential uuid, p_flag text,
    p_expected boolean, p_scopes text, p_repository text, p_service text,
    p_record uuid, p_entry uuid, p_line text, p_at timestamptz,
    p_audit uuid, p_request text, p_method text, p_path text, p_status integer,
    p_named uuid, p_scope_set text[], p_fresh_after timestamptz, p_slack_after timestamptz,
    p_born_after timestamptz, p_call uuid, p_operation text, p_purpose text, p_targets text[],
    p_input_shape jsonb, p_results text[], p_wrote boolean, p_journal_read boolean,
    p_duration_ms integer, p_due_before timestamptz, p_assistant text)
RETURNS TABLE (owner uuid, organization uuid, entry_id uuid, line text, author uuid,
               created_at timestamptz, session_id uuid)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_due boolean;
    v_ms integer;
BEGIN
    PERFORM n8v_open_tenant(p_role, p_idle, p_lock, p_account, p_credential, p_flag,
                            p_expected, p_scopes, p_repository, p_service);
    -- A named session must be the caller's own open one; the general path says why not.
    IF p_expected AND p_named IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM journal_sessions s
         WHERE s.account_id = n8v_account() AND s.credential_id = n8v_credential()
           AND s.session_id = p_named AND s.ended_at IS NULL) THEN
        RAISE EXCEPTION 'the named session is not an open session of this credential'
            USING ERRCODE = 'N8VSL';
    END IF;
    SELECT a.owner, a.organization, a.entry_id, a.line, a.author, a.created_at
      INTO owner, organization, entry_id, line, author, created_at
      FROM n8v_append_entry(p_record, p_entry, p_line, p_account, p_credential, p_at) a;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no such Record is visible' USING ERRCODE = 'N8VSL';
    END IF;
    v_ms := p_duration_ms
        + (extract(epoch FROM clock_timestamp() - statement_timestamp()) * 1000)::integer;
    SELECT c.session_id, c.due INTO session_id, v_due
      FROM n8v_record_call(true, p_audit, p_request, p_method, p_path, p_status, p_at,
               p_expected, p_named, p_scope_set, p_fresh_after, p_slack_after, p_born_after,
               p_call, p_operation, p_purpose, p_targets, p_status, p_input_shape, p_results,
               NULL, p_wrote, p_journal_read, v_ms, p_at, organization, p_due_before,
               p_assistant, NULL) c;
    -- No fresh session (the general path issues one), or its row is due (at most once a
    -- minute per session): the general path does it.
    IF p_expected AND (session_id IS NULL OR v_due) THEN
        RAISE EXCEPTION 'the call needs a new session or its session row written'
            USING ERRCODE = 'N8VSL';
    END IF;
    RETURN NEXT;
END
$$;
