-- The append's statement, small enough to start fast (issue 11, goals 1 and 6).
--
-- PostgreSQL builds every subplan of a statement's plan each time it runs it, run or not, and
-- row-level security puts each policy's subqueries into the plan wherever its table is read.
-- The audit + call statement read journal_sessions three times and journal_calls twice, and
-- each read brought the organizations subquery of the sessions' policy, which brought the
-- organizations' own policy and its organization_members subquery: 357 plan lines, most of
-- them never executed, all of them built on every call (bench/run's profile: memory-context
-- creation, malloc and executor start-up at the top of postgres' time).
--
-- 1. The organizations a tenant owns are one array, computed once per statement by an owner's
--    function. The policies that let an owner holding orgs:read see its members' organization
--    work compare against that array instead of carrying the subquery. Same rows: the function
--    returns exactly what organizations_owner_writes shows the tenant (account_id = tenant).
--    The comparison is written `array @> ARRAY[organization_id]`, which no index serves, on
--    purpose: written `organization_id = ANY (array)` the policy became an index condition,
--    and the planner OR-ed it with the account's index into a bitmap over the whole account
--    instead of the ordered scan that stops at the page (bench/run: the catch-up read 20,000
--    sessions). The reads name the organizations themselves where they want that index.
-- 2. The exact last activity the append needs (a call that may join an implicit session that
--    went quiet between 30 and 31 minutes ago) is n8v_last_activity's reading of the caller's
--    own calls, in an owner's function: only the tenant's rows made with its own credential.
--    Every session it can be asked about is the caller's own (the statement names only
--    sessions of n8v_account() and n8v_credential()), so it answers nothing the policies hide.
-- 3. Likewise the Records a member may read: the organizations it belongs to with can_read,
--    one array from an owner's function (exactly the rows organization_members_own shows the
--    tenant), in place of the membership subquery the Record statement carried three times.
--
-- All three are plpgsql: PostgreSQL 15 plans a non-inlined SQL function's body on every call of
-- every statement, plpgsql once per connection.

CREATE FUNCTION n8v_owned_organizations() RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN ARRAY(SELECT o.organization_id FROM organizations o WHERE o.account_id = n8v_account());
END $$;

CREATE FUNCTION n8v_own_last_activity(p_session uuid, p_stored timestamptz) RETURNS timestamptz
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    -- The newest call first, from journal_calls_by_session's order: max() over the range would
    -- read every call since the stored bound (up to a minute of them; the generic plan does).
    RETURN GREATEST(p_stored, (SELECT c.created_at FROM journal_calls c
                                WHERE c.account_id = n8v_account()
                                  AND c.credential_id = n8v_credential()
                                  AND c.session_id = p_session AND c.created_at > p_stored
                                ORDER BY c.created_at DESC LIMIT 1));
END $$;

CREATE FUNCTION n8v_readable_organizations() RETURNS uuid[]
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN ARRAY(SELECT m.organization_id FROM organization_members m
                  WHERE m.account_id = n8v_account() AND m.can_read);
END $$;

REVOKE ALL ON FUNCTION n8v_owned_organizations() FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_readable_organizations() FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_own_last_activity(uuid, timestamptz) FROM PUBLIC;

ALTER POLICY journal_sessions_visible ON journal_sessions
    USING (scopes <@ (SELECT n8v_scopes())
           AND ((SELECT n8v_repository()) IS NULL OR credential_id = (SELECT n8v_credential()))
           AND (account_id = (SELECT n8v_account())
                OR ((SELECT n8v_scopes()) @> ARRAY['orgs:read']
                    AND (SELECT n8v_owned_organizations()) @> ARRAY[organization_id])));

ALTER POLICY records_visible ON records
    USING (account_id = (SELECT n8v_account())
           OR (SELECT n8v_readable_organizations()) @> ARRAY[organization_id]);

ALTER POLICY journal_calls_org_activity ON journal_calls
    USING (organization_id IS NOT NULL
           AND scopes <@ (SELECT n8v_scopes())
           AND (SELECT n8v_repository()) IS NULL
           AND (SELECT n8v_scopes()) @> ARRAY['orgs:read']
           AND (SELECT n8v_owned_organizations()) @> ARRAY[organization_id]);

-- The reads' exact last activity (0010) takes the newest call the same way.
CREATE OR REPLACE FUNCTION n8v_last_activity(p_account uuid, p_session uuid, p_stored timestamptz)
RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT GREATEST(p_stored, (SELECT c.created_at FROM journal_calls c
                                WHERE c.account_id = p_account AND c.session_id = p_session
                                  AND c.created_at > p_stored
                                ORDER BY c.created_at DESC LIMIT 1))
$$;
