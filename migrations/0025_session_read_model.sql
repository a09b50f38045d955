-- The session read model in one home (issue 35).
--
-- What a session's last activity, call and write counts and recent purposes are was spread over
-- the stored fold columns (0015, 0016), functions (0010, 0012, 0016) and the service's own SQL
-- text (the session columns and the fold). Here both halves are defined once:
--
-- * journal_session_reads: a session as every read answers it. The exact last activity (the
--   stored bound or the newest call, whichever is later, 0010), the counts (those folded into
--   the session plus its calls made since, 0015) and the newest distinct purposes (those of the
--   calls made since the fold, then the folded ones, 0016). The stored bound stays readable as
--   activity_bound, which the rules filter on first (an index serves it). A plain view with the
--   caller's rights (security_invoker): the sessions' and calls' policies decide what it shows,
--   and the planner folds it into each statement, so a read pays only for the columns it names.
--   Each derived value is a function of the row (n8v_call_count, n8v_write_count and
--   n8v_session_purposes below, in PL/pgSQL; 0010's n8v_last_activity), not a subquery: a read that names the
--   view in both branches of its union had the planner plan every subquery again in each (about
--   3 ms more for the brief, bench/RESULTS-issue35-read-model.md); a function call is planned
--   once per connection and evaluated only where a read names its column.
-- * n8v_session_fold(session, at): what a statement that writes the session's row stores to
--   fold its calls made up to `at` less the fold's lag (30 s, the default request timeout: a call
--   still being committed is never passed over, 0015) into its counts and folded purposes.

-- The calls of a session made since its fold (`p_through`) counted onto the folded count, all or
-- only writes; the newest distinct purposes of those calls, then the folded ones. Security
-- invoker: the calls' policy decides what is counted, as in every read.
CREATE FUNCTION n8v_call_count(p_account uuid, p_session uuid, p_through timestamptz,
                               p_counted integer)
RETURNS integer LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    -- Compared with the column itself (never NULL): wrapped in an expression, the bound was no
    -- index condition under row-level security and a read counted every call again.
    RETURN p_counted + (SELECT count(*) FROM journal_calls c
                         WHERE c.account_id = p_account AND c.session_id = p_session
                           AND c.created_at > p_through)::integer;
END $$;

CREATE FUNCTION n8v_write_count(p_account uuid, p_session uuid, p_through timestamptz,
                                p_counted integer)
RETURNS integer LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    RETURN p_counted + (SELECT count(*) FROM journal_calls c
                         WHERE c.account_id = p_account AND c.session_id = p_session
                           AND c.created_at > p_through AND c.wrote)::integer;
END $$;

CREATE FUNCTION n8v_session_purposes(p_account uuid, p_session uuid, p_through timestamptz,
                                     p_folded text[])
RETURNS text[] LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    RETURN n8v_recent_purposes(ARRAY(
               SELECT c.purpose FROM journal_calls c
                WHERE c.account_id = p_account AND c.session_id = p_session
                  AND c.created_at > p_through AND c.purpose IS NOT NULL
                ORDER BY c.created_at DESC, c.call_id DESC LIMIT 50), p_folded);
END $$;
REVOKE ALL ON FUNCTION n8v_call_count(uuid, uuid, timestamptz, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_write_count(uuid, uuid, timestamptz, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_session_purposes(uuid, uuid, timestamptz, text[]) FROM PUBLIC;

CREATE VIEW journal_session_reads WITH (security_invoker = true) AS
SELECT s.account_id, s.session_id, s.credential_id, s.kind, s.assistant, s.agent,
       s.organization_id, s.repository, s.scopes, s.goal, s.outcome, s.handoff, s.started_at,
       s.last_activity_at AS activity_bound,
       -- Through the function: written out, the planner evaluated it far more often (a 6 s
       -- catch-up at the caps in bench/run).
       n8v_last_activity(s.account_id, s.session_id, s.last_activity_at) AS last_activity_at,
       s.ended_at, s.end_reason, s.journal_only, s.episode_id, s.episode_part, s.episode_open,
       n8v_call_count(s.account_id, s.session_id, s.counted_through, s.counted_calls)
           AS call_count,
       n8v_write_count(s.account_id, s.session_id, s.counted_through, s.counted_writes)
           AS write_count,
       s.summary, s.summary_snapshot, s.summary_model, s.summary_cost_usd,
       s.summary_input_tokens, s.summary_output_tokens, s.summary_note,
       -- Only for the provisional account of a session without a summary.
       CASE WHEN s.summary IS NULL
            THEN n8v_session_purposes(s.account_id, s.session_id, s.counted_through,
                                      s.folded_purposes)
            ELSE ARRAY[]::text[] END AS recent_purposes
  FROM journal_sessions s;

CREATE FUNCTION n8v_session_fold(s journal_sessions, p_at timestamptz,
                                 OUT counted_calls integer, OUT counted_writes integer,
                                 OUT counted_through timestamptz, OUT folded_purposes text[],
                                 OUT folded_marked text[])
LANGUAGE sql STABLE AS $$
    SELECT s.counted_calls + f.calls, s.counted_writes + f.writes,
           GREATEST(s.counted_through, lag.through), f.purposes, f.marked
      FROM (SELECT p_at - interval '30 seconds' AS through) lag,
           n8v_own_call_fold(s.session_id, s.counted_through, lag.through, s.folded_purposes,
                             s.folded_marked) f
$$;
REVOKE ALL ON FUNCTION n8v_session_fold(journal_sessions, timestamptz) FROM PUBLIC;
