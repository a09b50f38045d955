-- Variants of the one-statement append (issue 56), for bench/run's ablation in that form: each
-- is `n8v_append_journalled` as committed (migration 0039), read back from the catalog, with
-- one thing left out or written in. Each edit must find its text: when the function changes
-- shape this fails, and the bench with it, rather than measure a variant that no longer is one.
-- Run on bench/run's scratch database only, as its owner; bench/pgbench-append-one.sql calls
-- each variant by name (bench/run renames the call).
DO $variants$
DECLARE
    src text := pg_get_functiondef('public.n8v_append_journalled'::regproc);
    opening text := (SELECT prosrc FROM pg_proc WHERE oid = 'public.n8v_open_tenant'::regproc);
    call_open text := 'PERFORM n8v_open_tenant(p_role, p_idle, p_lock, p_account, p_credential, p_flag,
                            p_expected, p_scopes, p_repository, p_service);';
    -- The audit + call statement, as the function runs it.
    journal text := substring(src FROM 'SELECT c\.session_id, c\.due INTO .*?\) c;');
    rest text := substring(src FROM '    -- A named session must be .*?RETURN NEXT;');
    edits text[][] := ARRAY[
        -- name, what to find, what to write instead
        ARRAY['bench_one_no_audit', 'n8v_record_call(true, ', 'n8v_record_call(false, '],
        -- (a stand-in session, so that the check after it hands nothing back)
        ARRAY['bench_one_no_journal', journal, 'session_id := p_call; v_due := false;'],
        ARRAY['bench_one_opening_only', rest, 'RETURN NEXT;'],
        ARRAY['bench_one_opening_inline', call_open,
              regexp_replace(opening, '^\s*BEGIN(.*)END\s*$', '\1')]];
    e text[];
BEGIN
    IF journal IS NULL OR rest IS NULL THEN
        RAISE EXCEPTION 'n8v_append_journalled changed shape: update %', 'bench/pgbench-append-one-variants.sql';
    END IF;
    FOREACH e SLICE 1 IN ARRAY edits LOOP
        IF position(e[2] IN src) = 0 THEN
            RAISE EXCEPTION 'variant %: its text is not in n8v_append_journalled', e[1];
        END IF;
        EXECUTE replace(replace(src, 'FUNCTION public.n8v_append_journalled(',
                                'FUNCTION public.' || e[1] || '('), e[2], e[3]);
    END LOOP;
END
$variants$;
