-- One lock order for everything deleting sessions touches (issue 34, finding 5).
--
-- Deleting sessions reaches their items and exposures through foreign keys: the sources and the
-- sightings go by cascade (and migrations 0018's and 0019's triggers then lock the items and the
-- exposures they leave, in id order), and the items a session closed lose it by `ON DELETE SET
-- NULL`. PostgreSQL runs those actions one deleted session at a time, so a statement deleting
-- several sessions locks their items in the order of its sessions, not in id order: two day
-- deletions sharing items deadlocked every time. And an item closed (or an exposure
-- acknowledged) in a session being deleted was locked before its session by the closer and
-- after it by the deletion.
--
-- The order is: sessions, then items, then exposures, each in id order. Every deletion of
-- sessions first calls n8v_lock_for_deletion with the sessions it means to delete, and deletes
-- only those it returns; closing an item and acknowledging an exposure lock their call's session
-- first (`sessions::hold`); closing items in bulk locks them in id order (`loops::resolve`).
-- Ending a session locks it first (it is updated) and its items after, as before.
--
-- The function runs as the owner, so it also locks what a narrow credential cannot read (an
-- item another key opened, closed in one of the sessions), as the cascades will; it locks only
-- the acting account's rows, and returns the sessions it locked that still exist.
CREATE FUNCTION n8v_lock_for_deletion(p_sessions uuid[]) RETURNS uuid[]
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    locked uuid[];
BEGIN
    SELECT coalesce(array_agg(s.session_id), '{}') INTO locked FROM (
        SELECT s.session_id FROM journal_sessions s
         WHERE s.account_id = n8v_account() AND s.session_id = ANY (p_sessions)
         ORDER BY s.session_id
           FOR UPDATE) s;
    PERFORM 1 FROM journal_loops l
      WHERE l.account_id = n8v_account()
        AND (l.session_id = ANY (locked) OR l.closed_session_id = ANY (locked)
             OR l.loop_id IN (SELECT src.loop_id FROM journal_loop_sources src
                               WHERE src.account_id = n8v_account()
                                 AND src.session_id = ANY (locked)))
      ORDER BY l.loop_id
        FOR UPDATE;
    PERFORM 1 FROM journal_exposures e
      WHERE e.account_id = n8v_account()
        AND e.exposure_id IN (SELECT g.exposure_id FROM journal_exposure_sightings g
                               WHERE g.account_id = n8v_account()
                                 AND g.session_id = ANY (locked))
      ORDER BY e.exposure_id
        FOR UPDATE;
    RETURN locked;
END $$;
REVOKE ALL ON FUNCTION n8v_lock_for_deletion(uuid[]) FROM PUBLIC;

-- Locking a row needs an UPDATE policy that admits it: this one lets the owner's functions
-- lock the acting account's sessions, and update none (its check admits no new row).
DO $$
DECLARE
    owner_role text := (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                         WHERE c.oid = 'public.journal_sessions'::regclass);
BEGIN
    EXECUTE format(
        'CREATE POLICY journal_sessions_owner_lock ON journal_sessions FOR UPDATE TO %I '
        'USING (account_id = (SELECT n8v_account())) WITH CHECK (false)', owner_role);
END $$;

-- Deleting an account takes its sessions, items and exposures in the same order before the
-- account row (its cascades reach them one table at a time). Otherwise as in migration 0013.
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
    PERFORM n8v_lock_for_deletion(ARRAY(SELECT s.session_id FROM journal_sessions s
                                         WHERE s.account_id = p_account));
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
