-- Privacy and security, round two (issue 21).

-- A session deleted on purpose takes the week digest that covers it and the month digest that
-- covers that week with it, in the deleting statement's own transaction: a digest is a summary
-- of its sessions, so it may not keep what one of them said once that one is gone. The next
-- digest pass makes them again from what is left (the week is due again, then its month), by the
-- model within the budget, exactly as the first time; nothing is queued, so nothing can be lost.
-- Retention's deletions (the service's own work) leave digests alone: digests outlive the
-- sessions' retention by design. The trigger runs as the owner, so it reaches the digests a
-- repository-restricted or narrow credential cannot read; it deletes only the account's own.
CREATE FUNCTION n8v_forget_deleted_sessions() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF n8v_service() THEN
        RETURN NULL;
    END IF;
    DELETE FROM journal_digests d
     USING (SELECT DISTINCT g.account_id,
                   date_trunc('week', g.started_at AT TIME ZONE 'UTC')::date AS week
              FROM n8v_gone_sessions g) w
     WHERE d.account_id = w.account_id
       AND ((d.period = 'week' AND d.period_start = w.week)
            OR (d.period = 'month' AND d.period_start = date_trunc('month', w.week)::date));
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION n8v_forget_deleted_sessions() FROM PUBLIC;

CREATE TRIGGER journal_sessions_forget_digests AFTER DELETE ON journal_sessions
    REFERENCING OLD TABLE AS n8v_gone_sessions
    FOR EACH STATEMENT EXECUTE FUNCTION n8v_forget_deleted_sessions();

-- The trigger's DELETE runs as the table's owner, under FORCE ROW LEVEL SECURITY: these
-- policies let the owner (never the application role) find and delete the acting account's
-- digests (a DELETE with a WHERE clause needs a SELECT policy too).
DO $$
DECLARE
    owner_role text := (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                         WHERE c.oid = 'public.journal_digests'::regclass);
BEGIN
    EXECUTE format(
        'CREATE POLICY journal_digests_owner_find ON journal_digests FOR SELECT TO %I '
        'USING (account_id = (SELECT n8v_account()))', owner_role);
    EXECUTE format(
        'CREATE POLICY journal_digests_owner_forget ON journal_digests FOR DELETE TO %I '
        'USING (account_id = (SELECT n8v_account()))', owner_role);
END $$;

-- Episode claims are per credential (issue 21, finding 4): one account's keys do not share
-- episode ids, so a narrow or repository-restricted key cannot post under an id first and keep
-- another key's conversation out of the journal, nor trip over an id a wider key posted. A key
-- and the tokens minted from it are one credential and share its claims.
DROP INDEX journal_sessions_one_per_episode_part;
CREATE UNIQUE INDEX journal_sessions_one_per_episode_part
    ON journal_sessions (account_id, credential_id, episode_id, episode_part)
    WHERE episode_id IS NOT NULL;

-- Deleting an account keeps the operator log's facts about it (what was done, by whom, when,
-- to which account id) and drops what the account supplied: its name, which the flag actions
-- wrote into their detail (issue 21, finding 6). Otherwise as in migration 0004.
CREATE OR REPLACE FUNCTION n8v_delete_account(p_account uuid, p_actor text)
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
    UPDATE operator_log SET detail = detail - 'account_name'
     WHERE detail ? 'account_name' AND detail ->> 'account' = p_account::text;
    INSERT INTO operator_log (entry_id, actor, action, subject, detail)
    VALUES (gen_random_uuid(), p_actor, 'delete-account', p_account::text, counts);
    RETURN counts;
END
$$;
REVOKE ALL ON FUNCTION n8v_delete_account(uuid, text) FROM PUBLIC;

-- Accounts deleted before this migration: their names go too.
UPDATE operator_log l SET detail = l.detail - 'account_name'
 WHERE l.detail ? 'account_name'
   AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.account_id::text = l.detail ->> 'account');

-- Signing out ends the sign-in on the server (issue 21, finding 9). The pages' and the
-- console's cookies carry their own id (`jti`); signing out writes it here until the cookie
-- would have expired anyway, and a cookie listed here is refused like a revoked key. Not tenant
-- data (the console's operators have no account): only the owner's functions below reach it.
CREATE TABLE signed_out_tokens (
    token_id    uuid        NOT NULL PRIMARY KEY,
    expires_at  timestamptz NOT NULL
);
CREATE INDEX signed_out_tokens_by_expiry ON signed_out_tokens (expires_at);

CREATE FUNCTION n8v_sign_out(p_token uuid, p_expires_at timestamptz) RETURNS void
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    DELETE FROM signed_out_tokens WHERE expires_at < now();
    INSERT INTO signed_out_tokens (token_id, expires_at) VALUES (p_token, p_expires_at)
    ON CONFLICT (token_id) DO NOTHING;
$$;

CREATE FUNCTION n8v_signed_out(p_token uuid) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM signed_out_tokens WHERE token_id = p_token)
$$;

REVOKE ALL ON FUNCTION n8v_sign_out(uuid, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_signed_out(uuid) FROM PUBLIC;
