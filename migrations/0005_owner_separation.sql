-- The owner and the application role are never the same (issue 9, finding 2).
--
-- 0001/0002 wrote the owner-only policies `TO CURRENT_USER`: whoever ran the migration. Had that
-- been the application role, those `USING (true)` policies would apply to every tenant
-- transaction and every account would see every account. They now name the role that owns the
-- table (the migration owner, found in the catalog), and `migrate` refuses to run as the
-- application role or while it owns any relation (src/db/roles.rs), so the role named here is
-- never the one tenant work runs as.

-- Nobody but the schema's owner creates objects in `public` (PostgreSQL 14 and older let
-- everyone). A migrator that does not own the schema cannot revoke; it is told, not stopped:
-- `migrate` checks separately that the application role cannot create there.
DO $$
BEGIN
    REVOKE CREATE ON SCHEMA public FROM PUBLIC;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE WARNING 'could not revoke CREATE on schema public from PUBLIC: run it as the schema owner';
END $$;

DO $$
DECLARE
    p record;
BEGIN
    FOR p IN
        SELECT * FROM (VALUES
            ('organizations', 'organizations_owner_lookup'),
            ('credentials', 'credentials_owner_lookup'),
            ('journal_sessions', 'journal_sessions_owner_sweep')) AS v(tbl, pol)
    LOOP
        EXECUTE format('DROP POLICY %I ON %I', p.pol, p.tbl);
        EXECUTE format('CREATE POLICY %I ON %I FOR SELECT TO %I USING (true)',
                       p.pol, p.tbl,
                       (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                         WHERE c.oid = format('public.%I', p.tbl)::regclass));
    END LOOP;
END $$;
