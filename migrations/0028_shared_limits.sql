-- The limits counted for the deployment, not per replica (issue 44, finding 3). Every replica
-- takes from the same buckets: the per-credential rate limit (in leases of a few requests),
-- the failed authentications per client address and the dynamic registrations per address.
-- Not tenant data (addresses have no account; the counts are the service's bookkeeping): the
-- owner's pool alone reads and writes them, and the application role has no grant on them.
--
-- A bucket is GCRA's one number, its theoretical arrival time `tat`: `per_minute` tokens a
-- minute, one every `60 / per_minute` seconds, at most `per_minute` saved up. The bucket is
-- full once `tat` has passed, so such a row says nothing a missing one does not and is deleted
-- (`n8v_limit_prune`): the table holds only what was used within the last minute.
CREATE TABLE limit_buckets (
    kind  text        NOT NULL,
    key   text        NOT NULL,
    tat   timestamptz NOT NULL,
    PRIMARY KEY (kind, key)
);
CREATE INDEX limit_buckets_by_tat ON limit_buckets (tat);
REVOKE ALL ON limit_buckets FROM PUBLIC;

-- Takes up to `p_want` tokens from the bucket (`kind`, `key`), after giving back `p_give_back`
-- taken earlier and not spent (an expired lease's rest). `granted` may be fewer than asked (0:
-- refused); `remaining` is what is left; `reset_ms` is when the bucket is full again and
-- `retry_ms` when the next token is there (0 when one is). The row is locked for the take, so
-- replicas taking at once queue on it and never both spend the last token.
CREATE FUNCTION n8v_limit_take(
    p_kind text, p_key text, p_per_minute integer, p_want integer, p_give_back integer
) RETURNS TABLE (granted integer, remaining integer, reset_ms bigint, retry_ms bigint)
LANGUAGE plpgsql VOLATILE SET search_path = public, pg_temp AS $$
DECLARE
    t_now  double precision := extract(epoch FROM clock_timestamp());
    step   double precision := 60.0 / greatest(p_per_minute, 1);
    t_at   double precision;
    spare  integer;
BEGIN
    INSERT INTO limit_buckets AS b (kind, key, tat) VALUES (p_kind, p_key, to_timestamp(t_now))
    ON CONFLICT (kind, key) DO NOTHING;
    SELECT extract(epoch FROM b.tat) INTO t_at FROM limit_buckets b
     WHERE b.kind = p_kind AND b.key = p_key FOR UPDATE;
    t_at := greatest(t_at - greatest(p_give_back, 0) * step, t_now);
    spare := greatest(0, least(p_per_minute,
        floor((t_now + p_per_minute * step - t_at) / step + 1e-6)::integer));
    granted := least(greatest(p_want, 0), spare);
    t_at := t_at + granted * step;
    UPDATE limit_buckets b SET tat = to_timestamp(t_at) WHERE b.kind = p_kind AND b.key = p_key;
    remaining := spare - granted;
    reset_ms := ceil((t_at - t_now) * 1000)::bigint;
    retry_ms := CASE WHEN remaining > 0 THEN 0
                     ELSE greatest(1, ceil((t_at - t_now - (p_per_minute - 1) * step) * 1000))::bigint
                END;
    RETURN NEXT;
END
$$;
REVOKE ALL ON FUNCTION n8v_limit_take(text, text, integer, integer, integer) FROM PUBLIC;

-- Drops the full buckets (see above); returns how many went.
CREATE FUNCTION n8v_limit_prune() RETURNS bigint
LANGUAGE sql VOLATILE SET search_path = public, pg_temp AS $$
    WITH gone AS (DELETE FROM limit_buckets WHERE tat < now() RETURNING 1)
    SELECT count(*) FROM gone
$$;
REVOKE ALL ON FUNCTION n8v_limit_prune() FROM PUBLIC;
