-- The write path at the database's speed (issue 11).
--
-- 1. No hot session row. A call no longer updates its session's counters: the counts are
--    derived from the calls (journal_calls_by_session serves them), and last_activity_at is
--    kept as a lower bound that a call moves only when it is more than a minute behind (so 32
--    concurrent calls in one session do not queue on one row lock). The exact last activity is
--    GREATEST(last_activity_at, newest call), which n8v_last_activity reads through the same
--    index; every rule that depends on it (the 30-minute join, the 2-hour quiet sweep,
--    retention, the catch-up window) filters on the stored bound with the minute's slack and
--    then on the exact value, so the rules hold exactly.
-- 2. Fewer round trips: n8v_begin runs inside the statement batch that begins the tenant
--    transaction; it refuses a credential revoked (or removed) since the service cached it, and
--    a flag value that changed since the service cached it, so neither cache is ever acted on
--    stale. The triggers below NOTIFY the services so they drop those entries at once.

ALTER TABLE journal_sessions DROP COLUMN call_count, DROP COLUMN write_count;

-- The exact last activity of a session: its stored bound or its newest call, whichever is later.
-- Invoker's rights: the caller sees only the calls its policies let it see.
CREATE FUNCTION n8v_last_activity(p_account uuid, p_session uuid, p_stored timestamptz)
RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT GREATEST(p_stored, (SELECT max(c.created_at) FROM journal_calls c
                                WHERE c.account_id = p_account AND c.session_id = p_session
                                  AND c.created_at > p_stored))
$$;

-- Checks made in the round trip that begins a tenant transaction (just before its BEGIN, so a
-- refusal leaves no transaction open): the credential still exists unrevoked (SQLSTATE N8VRV),
-- and the flag still has the value the caller cached (SQLSTATE N8VFL).
CREATE FUNCTION n8v_begin(p_account uuid, p_credential uuid, p_flag text, p_expected boolean)
RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF p_credential IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM credentials
         WHERE account_id = p_account AND credential_id = p_credential AND revoked_at IS NULL)
    THEN
        RAISE EXCEPTION 'credential % is revoked or gone', p_credential USING ERRCODE = 'N8VRV';
    END IF;
    IF p_flag IS NOT NULL AND p_expected IS DISTINCT FROM COALESCE(
        (SELECT o.enabled FROM feature_flag_overrides o
          WHERE o.account_id = p_account AND o.flag = p_flag),
        (SELECT f.enabled FROM feature_flags f WHERE f.flag = p_flag), false)
    THEN
        RAISE EXCEPTION 'flag % changed', p_flag USING ERRCODE = 'N8VFL';
    END IF;
END
$$;
REVOKE ALL ON FUNCTION n8v_begin(uuid, uuid, text, boolean) FROM PUBLIC;

-- The owner reads overrides inside n8v_begin; never the app role.
CREATE POLICY feature_flag_overrides_owner_check ON feature_flag_overrides FOR SELECT
    TO CURRENT_USER USING (true);

-- Cache invalidation: a changed credential or flag is announced on n8v_invalidate.
CREATE FUNCTION n8v_notify_credential() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('n8v_invalidate', 'credential:' || OLD.credential_id::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER credentials_invalidate AFTER UPDATE OR DELETE ON credentials
    FOR EACH ROW EXECUTE FUNCTION n8v_notify_credential();

CREATE FUNCTION n8v_notify_flag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('n8v_invalidate', 'flags');
    RETURN NULL;
END
$$;
CREATE TRIGGER feature_flags_invalidate AFTER INSERT OR UPDATE OR DELETE ON feature_flags
    FOR EACH STATEMENT EXECUTE FUNCTION n8v_notify_flag();
CREATE TRIGGER feature_flag_overrides_invalidate AFTER INSERT OR UPDATE OR DELETE
    ON feature_flag_overrides FOR EACH STATEMENT EXECUTE FUNCTION n8v_notify_flag();

-- The sweep's candidates are open sessions whose stored bound is past the cutoff; the close
-- itself (as the service, which reads the calls) re-checks the exact last activity.
