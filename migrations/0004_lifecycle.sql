-- The data lifecycle: retention and caps, audit retention, account deletion.
--
-- Expiry is row deletion in bounded batches (jobs::retention), not time partitions. Why: the
-- per-account caps (100,000 calls, 20,000 sessions, oldest first) need row-level deletion per
-- account anyway, and an account's oldest rows are found through the (account_id, created_at)
-- and (account_id, started_at) indexes that lead with account_id, the Citus distribution key.
-- Each batch is its own short transaction touching at most a few thousand rows of one account,
-- so no lock is held for long and concurrent writes to other rows never wait on it. Should
-- global expiry ever dominate, journal_calls can be range-partitioned by created_at under the
-- same primary key (account_id, call_id, created_at) and expiry becomes dropping a partition;
-- the caps would keep the batched path.

-- The service may delete an account's journal rows (and nothing of another account's).
CREATE POLICY journal_calls_service_delete ON journal_calls FOR DELETE
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));
CREATE POLICY audit_log_service_delete ON audit_log FOR DELETE
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));
-- Sessions and summaries: the service's FOR ALL policies (0002) already cover DELETE.

CREATE INDEX journal_sessions_by_activity ON journal_sessions (account_id, last_activity_at);

-- The accounts a pass of retention walks: ids only, across accounts, through the owner.
CREATE FUNCTION n8v_account_ids(p_after uuid, p_limit integer)
RETURNS TABLE (account_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT a.account_id FROM accounts a
     WHERE p_after IS NULL OR a.account_id > p_after
     ORDER BY a.account_id
     LIMIT p_limit
$$;
REVOKE ALL ON FUNCTION n8v_account_ids(uuid, integer) FROM PUBLIC;

-- What operators did to accounts (deletions first). Not tenant data: it outlives the account,
-- so it names the account in `subject`, not in an account_id column.
CREATE TABLE operator_log (
    entry_id    uuid        NOT NULL PRIMARY KEY,
    actor       text        NOT NULL,
    action      text        NOT NULL,
    subject     text        NOT NULL,
    detail      jsonb       NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Deletes the account the transaction acts for (app.account_id must name it), every row of it
-- in every table (foreign keys cascade from accounts), its queued job payloads, and writes the
-- deletion to the operator log. Returns the rows deleted per table.
CREATE FUNCTION n8v_delete_account(p_account uuid, p_actor text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    counts jsonb := '{}';
    t record;
    n bigint;
BEGIN
    IF p_account IS NULL OR p_account IS DISTINCT FROM n8v_account() THEN
        RAISE EXCEPTION 'an account can only be deleted while acting for it'
            USING ERRCODE = '42501';
    END IF;
    FOR t IN
        SELECT c.relname FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
         WHERE s.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'accounts'
           AND EXISTS (SELECT 1 FROM pg_attribute a
                        WHERE a.attrelid = c.oid AND a.attname = 'account_id' AND NOT a.attisdropped)
         ORDER BY 1
    LOOP
        EXECUTE format('SELECT count(*) FROM %I WHERE account_id = $1', t.relname)
            INTO n USING p_account;
        counts := counts || jsonb_build_object(t.relname, n);
    END LOOP;
    DELETE FROM apalis.jobs
     WHERE convert_from(job, 'UTF8') LIKE '%' || p_account::text || '%'
       AND (convert_from(job, 'UTF8')::jsonb ->> 'account_id') = p_account::text;
    GET DIAGNOSTICS n = ROW_COUNT;
    counts := counts || jsonb_build_object('apalis.jobs', n);
    DELETE FROM accounts WHERE account_id = p_account;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        RAISE EXCEPTION 'no account %', p_account USING ERRCODE = 'P0002';
    END IF;
    counts := counts || jsonb_build_object('accounts', n);
    INSERT INTO operator_log (entry_id, actor, action, subject, detail)
    VALUES (gen_random_uuid(), p_actor, 'delete-account', p_account::text, counts);
    RETURN counts;
END
$$;
REVOKE ALL ON FUNCTION n8v_delete_account(uuid, text) FROM PUBLIC;

-- The quiet sweep closes a session quiet for two hours exactly, not only for longer.
CREATE OR REPLACE FUNCTION n8v_quiet_sessions(p_cutoff timestamptz, p_limit integer)
RETURNS TABLE (account_id uuid, session_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT s.account_id, s.session_id FROM journal_sessions s
     WHERE s.ended_at IS NULL AND s.last_activity_at <= p_cutoff
     ORDER BY s.last_activity_at
     LIMIT p_limit
$$;

-- Deleting on purpose: a credential holding chats:delete deletes its own account's sessions that
-- it can read (the select policy applies too); their calls and summaries go with them. An
-- organization's owner reads members' sessions but never deletes them.
CREATE POLICY journal_sessions_delete ON journal_sessions FOR DELETE
    USING (account_id = (SELECT n8v_account())
           AND (SELECT n8v_scopes()) @> ARRAY['chats:delete']
           AND scopes <@ (SELECT n8v_scopes())
           AND ((SELECT n8v_repository()) IS NULL OR credential_id = (SELECT n8v_credential())));
