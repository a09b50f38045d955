-- The tenant transaction's opening as one statement with bound values (issue 43): the
-- application role, the account's lock, the checks of n8v_begin and the tenant's settings,
-- all transaction-local. It replaces a batch of simple-protocol statements whose values were
-- quoted into its text.
--
-- Invoker's rights, run by the login role (through PUBLIC): it does only what its caller could
-- do statement by statement. `set_config('role', …)` needs membership of that role, and
-- n8v_begin is then run with that role's rights, so the login role, which holds nothing, gains
-- nothing (it still may not run n8v_begin itself). A function because PL/pgSQL plans each of
-- its statements when it reaches it, after the role is set: one SELECT naming set_config and
-- n8v_begin side by side checks the right to run n8v_begin when it starts, as the login role.
-- No SET clause: it would confine the settings made here to the function.
CREATE FUNCTION n8v_open_tenant(
    p_role text, p_idle text, p_lock text, p_account uuid, p_credential uuid, p_flag text,
    p_expected boolean, p_scopes text, p_repository text, p_service text)
RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_catalog.set_config('role', p_role, true);
    -- The account's lock (its key, src/db/tenant.rs ACCOUNT_LOCK), shared, before the checks.
    IF p_lock IS NOT NULL THEN
        PERFORM pg_catalog.pg_advisory_xact_lock_shared(pg_catalog.hashtextextended(p_lock, 0));
    END IF;
    IF p_credential IS NOT NULL OR p_flag IS NOT NULL THEN
        PERFORM public.n8v_begin(p_account, p_credential, p_flag, p_expected);
    END IF;
    PERFORM pg_catalog.set_config('idle_in_transaction_session_timeout', p_idle, true),
            pg_catalog.set_config('app.account_id', p_account::text, true),
            pg_catalog.set_config('app.credential_id', COALESCE(p_credential::text, ''), true),
            pg_catalog.set_config('app.scopes', p_scopes, true),
            pg_catalog.set_config('app.repository', p_repository, true),
            pg_catalog.set_config('app.service', p_service, true);
END
$$;
