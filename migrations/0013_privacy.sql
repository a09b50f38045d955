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

