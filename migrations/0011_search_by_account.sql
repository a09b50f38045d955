-- Search that reads the account's matches, not its history (issue 11, goal 3).
--
-- Under row-level security PostgreSQL will not use a condition as an index condition unless
-- its operator is LEAKPROOF (it could otherwise run on rows the policies hide), and the text
-- match `@@` is not. So 0009's text indexes went unused by tenant reads: a search read every
-- session of the account and rebuilt each one's document to test it (413 ms at 20,000
-- sessions in bench/run, growing with the history).
--
-- Now the index finds the candidates, in two owner's functions that return ids only: the
-- caller's own sessions and calls that match, and those on the organizations it owns. The
-- search then reads those rows as the caller, under the same policies as every other read, so
-- a candidate the caller may not see (a scope it lacks, an organization without orgs:read) is
-- simply not found. The functions decide nothing about visibility and return no content;
-- they look at other accounts' sessions only for an owner holding orgs:read, as the policy does.
--
-- The indexes lead with the account, as every other index does (the Citus distribution
-- column): one index scan finds the account's matches and nothing else. btree_gin supplies the
-- uuid operator class for GIN; it is a trusted extension (PostgreSQL 13+), so a migrator with
-- CREATE on the database may install it, and managed PostgreSQL services and Citus ship it.
CREATE EXTENSION IF NOT EXISTS btree_gin;

DROP INDEX journal_sessions_search;
CREATE INDEX journal_sessions_search ON journal_sessions
    USING gin (account_id, n8v_session_document(goal, outcome, summary, handoff));
DROP INDEX journal_calls_search;
CREATE INDEX journal_calls_search ON journal_calls
    USING gin (account_id, n8v_text_document(purpose)) WHERE purpose IS NOT NULL;
DROP INDEX journal_digests_search;
CREATE INDEX journal_digests_search ON journal_digests
    USING gin (account_id, n8v_json_document(summary));

-- The owner reads calls across accounts only in the function below (journal_sessions has had
-- its owner's policy since 0002; the application role is never the owner, see 0005).
DO $$
BEGIN
    EXECUTE format('CREATE POLICY journal_calls_owner_search ON journal_calls FOR SELECT TO %I USING (true)',
                   (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                     WHERE c.oid = 'public.journal_calls'::regclass));
END $$;

CREATE FUNCTION n8v_session_matches(p_query tsquery, p_from timestamptz)
RETURNS TABLE (account_id uuid, session_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp ROWS 50 AS $$
    SELECT s.account_id, s.session_id FROM journal_sessions s
     WHERE s.account_id = n8v_account() AND s.started_at >= p_from
       AND n8v_session_document(s.goal, s.outcome, s.summary, s.handoff) @@ p_query
    UNION ALL
    SELECT s.account_id, s.session_id FROM journal_sessions s
     WHERE s.organization_id IN (SELECT o.organization_id FROM organizations o
                                  WHERE o.account_id = n8v_account())
       AND n8v_scopes() @> ARRAY['orgs:read']
       AND s.account_id <> n8v_account() AND s.started_at >= p_from
       AND n8v_session_document(s.goal, s.outcome, s.summary, s.handoff) @@ p_query
$$;

CREATE FUNCTION n8v_call_matches(p_query tsquery, p_from timestamptz)
RETURNS TABLE (account_id uuid, call_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp ROWS 50 AS $$
    SELECT c.account_id, c.call_id FROM journal_calls c
     WHERE c.account_id = n8v_account() AND c.created_at >= p_from AND c.purpose IS NOT NULL
       AND n8v_text_document(c.purpose) @@ p_query
    UNION ALL
    SELECT c.account_id, c.call_id FROM journal_sessions s
      JOIN journal_calls c ON c.account_id = s.account_id AND c.session_id = s.session_id
     WHERE s.organization_id IN (SELECT o.organization_id FROM organizations o
                                  WHERE o.account_id = n8v_account())
       AND n8v_scopes() @> ARRAY['orgs:read']
       AND s.account_id <> n8v_account() AND c.created_at >= p_from AND c.purpose IS NOT NULL
       AND n8v_text_document(c.purpose) @@ p_query
$$;

REVOKE ALL ON FUNCTION n8v_session_matches(tsquery, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_call_matches(tsquery, timestamptz) FROM PUBLIC;
