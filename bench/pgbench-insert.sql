-- One row shaped like a journalled call, inserted by pgbench: the database's own insert rate.
INSERT INTO bench_calls (account_id, call_id, session_id, credential_id, operation, purpose, target_ids, status,
    ok, input_shape, result_ids, wrote, journal_read, duration_ms, created_at)
VALUES ('00000000-0000-0000-0000-000000000001', gen_random_uuid(),
    '00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000003',
    'appendRecordEntry', 'Put the result on record',
    ARRAY['rec_x'], 201, true, '{"body": {"line": "string"}}', ARRAY['ent_x'], true, false, 1, now());
