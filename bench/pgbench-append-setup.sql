-- Keys and implicit sessions for bench/pgbench-append.sql: one per pgbench client (:clients of
-- them), with ids derived from pgbench's client_id, on account :acc.
INSERT INTO credentials (account_id, credential_id, name, token_hash, scopes)
SELECT :'acc', ('00000000-0000-0000-0000-' || lpad(g::text, 12, '0'))::uuid, 'pgbench',
       decode(md5('pgbench' || g), 'hex'), '{records:read,records:write}'
  FROM generate_series(0, :clients - 1) g;
INSERT INTO journal_sessions (account_id, session_id, credential_id, kind, assistant, scopes,
    started_at, last_activity_at, journal_only)
SELECT :'acc', gen_random_uuid(), ('00000000-0000-0000-0000-' || lpad(g::text, 12, '0'))::uuid,
       'implicit', 'pgbench', '{records:read,records:write}', now(), now(), false
  FROM generate_series(0, :clients - 1) g;
