-- The database's side of one journalled append as the service now sends it (issue 56): one
-- statement, `n8v_append_journalled` (migration 0039), in a transaction of its own, as the
-- login role would run it (the opening sets the application role). Run by bench/run like
-- bench/pgbench-append.sql (-M prepared, -D acc=… rec=… role=…, keys and sessions from
-- bench/pgbench-append-setup.sql), with the same values. One difference: the service hands an
-- append back to its general path when the session's row is due to be written (at most once
-- a minute per session), and pgbench has no general path, so the row is never due here
-- (p_due_before a day back).
\set a random(1, 9000000000000000000)
\set c random(1, 9000000000000000000)
\set e random(1, 9000000000000000000)
SELECT * FROM n8v_append_journalled(
    CAST(:role AS text), '60000ms', 'n8v-account' || chr(58) || CAST(:acc AS text), CAST(:acc AS uuid),
    ('00000000-0000-0000-0000-' || lpad(CAST(:client_id AS text), 12, '0'))::uuid, 'assistantJournal', true,
    replace('records#read,records#write', '#', chr(58)), '', '',
    CAST(:rec AS uuid), lpad(to_hex(CAST(:e AS bigint)), 32, '0')::uuid, 'bench line', now(),
    lpad(to_hex(CAST(:a AS bigint)), 32, '0')::uuid, 'req', 'POST', '/api/v1/records/x/entries', 201,
    NULL, string_to_array(replace('records#read,records#write', '#', chr(58)), ','),
    now() - interval '30 minutes', now() - interval '31 minutes', now() - interval '12 hours',
    lpad(to_hex(CAST(:c AS bigint)), 32, '0')::uuid, 'appendRecordEntry', 'Put the result on record',
    ARRAY['rec_x'], '{"body": {"line": "string"}}', ARRAY['ent_x'], true, false, 1,
    now() - interval '1 day', 'pgbench');
