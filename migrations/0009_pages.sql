-- The journal pages, search and the operator console (issue 12).

-- Search ---------------------------------------------------------------------------------------
-- PostgreSQL full-text search (english) over what the journal keeps as prose: a session's goal,
-- outcome, hand-off (0008) and summary, a call's purpose, a digest's summary. Expression indexes, so no table
-- changes shape; the search queries use exactly these functions, so the planner matches them.

CREATE FUNCTION n8v_session_document(p_goal text, p_outcome text, p_summary jsonb, p_handoff jsonb)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('english'::regconfig, coalesce(p_goal, '')), 'A')
        || setweight(to_tsvector('english'::regconfig, coalesce(p_outcome, '')), 'A')
        || setweight(jsonb_to_tsvector('english'::regconfig, coalesce(p_handoff, '{}'::jsonb),
                                       '["string"]'::jsonb), 'A')
        || setweight(jsonb_to_tsvector('english'::regconfig, coalesce(p_summary, '{}'::jsonb),
                                       '["string"]'::jsonb), 'B')
$$;

CREATE FUNCTION n8v_text_document(p_text text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT to_tsvector('english'::regconfig, coalesce(p_text, ''))
$$;

CREATE FUNCTION n8v_json_document(p_json jsonb)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT jsonb_to_tsvector('english'::regconfig, coalesce(p_json, '{}'::jsonb), '["string"]'::jsonb)
$$;

CREATE INDEX journal_sessions_search ON journal_sessions
    USING gin (n8v_session_document(goal, outcome, summary, handoff));
CREATE INDEX journal_calls_search ON journal_calls
    USING gin (n8v_text_document(purpose)) WHERE purpose IS NOT NULL;
CREATE INDEX journal_digests_search ON journal_digests
    USING gin (n8v_json_document(summary));

-- The operator console -------------------------------------------------------------------------
-- Operators reach no tenant data. The console needs three things across accounts, each through
-- an owner's function that answers only inside an operator's transaction (`app.operator`, set
-- by the console and the admin API, never by tenant work): accounts by id or name (ids and names
-- only), every override of the flags, and a flag change written together with its entry in the
-- operator log (who, what, before, after, when).

CREATE FUNCTION n8v_is_operator() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT coalesce(current_setting('app.operator', true), '') = 'on' $$;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['accounts', 'feature_flag_overrides'] LOOP
        EXECUTE format('CREATE POLICY %I ON %I FOR SELECT TO %I USING (true)',
                       t || '_owner_console', t,
                       (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                         WHERE c.oid = format('public.%I', t)::regclass));
    END LOOP;
END $$;

CREATE FUNCTION n8v_operator_accounts(p_query text, p_limit integer)
RETURNS TABLE (account_id uuid, name text, kind text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT n8v_is_operator() THEN
        RAISE EXCEPTION 'operators only' USING ERRCODE = '42501';
    END IF;
    RETURN QUERY
        SELECT a.account_id, a.name, a.kind FROM accounts a
         WHERE p_query IS NULL OR p_query = ''
            OR a.account_id::text = p_query
            OR a.name ILIKE '%' || replace(replace(replace(p_query, '\', '\\'), '%', '\%'), '_', '\_') || '%'
         ORDER BY lower(a.name), a.account_id
         LIMIT p_limit;
END $$;

CREATE FUNCTION n8v_operator_overrides()
RETURNS TABLE (flag text, account_id uuid, account_name text, enabled boolean, updated_at timestamptz)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT n8v_is_operator() THEN
        RAISE EXCEPTION 'operators only' USING ERRCODE = '42501';
    END IF;
    RETURN QUERY
        SELECT o.flag, o.account_id, a.name, o.enabled, o.updated_at
          FROM feature_flag_overrides o JOIN accounts a ON a.account_id = o.account_id
         ORDER BY o.flag, lower(a.name), o.account_id;
END $$;

-- Sets (p_enabled true/false) or clears (NULL) the global value (p_account NULL) or one
-- account's override, and logs the change. Returns {"before": …, "after": …}.
CREATE FUNCTION n8v_operator_set_flag(p_actor text, p_flag text, p_account uuid, p_enabled boolean)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_before boolean;
    v_name text;
BEGIN
    IF NOT n8v_is_operator() THEN
        RAISE EXCEPTION 'operators only' USING ERRCODE = '42501';
    END IF;
    IF p_account IS NULL THEN
        SELECT f.enabled INTO v_before FROM feature_flags f WHERE f.flag = p_flag;
        IF p_enabled IS NULL THEN
            DELETE FROM feature_flags WHERE flag = p_flag;
        ELSE
            INSERT INTO feature_flags (flag, enabled) VALUES (p_flag, p_enabled)
            ON CONFLICT (flag) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now();
        END IF;
    ELSE
        SELECT a.name INTO v_name FROM accounts a WHERE a.account_id = p_account;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'no account %', p_account USING ERRCODE = 'P0002';
        END IF;
        -- Writes go through the tenant policy, acting for that account alone.
        PERFORM set_config('app.account_id', p_account::text, true);
        SELECT o.enabled INTO v_before FROM feature_flag_overrides o
         WHERE o.account_id = p_account AND o.flag = p_flag;
        IF p_enabled IS NULL THEN
            DELETE FROM feature_flag_overrides WHERE account_id = p_account AND flag = p_flag;
        ELSE
            INSERT INTO feature_flag_overrides (account_id, flag, enabled)
            VALUES (p_account, p_flag, p_enabled)
            ON CONFLICT (account_id, flag) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now();
        END IF;
        PERFORM set_config('app.account_id', '', true);
    END IF;
    INSERT INTO operator_log (entry_id, actor, action, subject, detail)
    VALUES (gen_random_uuid(), p_actor,
            CASE WHEN p_enabled IS NULL THEN 'clear-flag' ELSE 'set-flag' END,
            p_flag || CASE WHEN p_account IS NULL THEN ' (global)' ELSE ' for ' || p_account::text END,
            jsonb_build_object('flag', p_flag, 'account', p_account, 'account_name', v_name,
                               'before', v_before, 'after', p_enabled));
    RETURN jsonb_build_object('before', v_before, 'after', p_enabled);
END $$;

CREATE FUNCTION n8v_operator_log(p_limit integer)
RETURNS TABLE (entry_id uuid, actor text, action text, subject text, detail jsonb, created_at timestamptz)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT n8v_is_operator() THEN
        RAISE EXCEPTION 'operators only' USING ERRCODE = '42501';
    END IF;
    RETURN QUERY
        SELECT l.entry_id, l.actor, l.action, l.subject, l.detail, l.created_at
          FROM operator_log l ORDER BY l.created_at DESC, l.entry_id DESC LIMIT p_limit;
END $$;

-- Operators are named in the log by their key's name and id.
CREATE FUNCTION n8v_operator_name(p_credential uuid) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT coalesce(nullif(name, ''), 'operator') FROM operator_credentials
     WHERE credential_id = p_credential AND revoked_at IS NULL
$$;

REVOKE ALL ON FUNCTION n8v_operator_accounts(text, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_operator_overrides() FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_operator_set_flag(text, text, uuid, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_operator_log(integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_operator_name(uuid) FROM PUBLIC;
