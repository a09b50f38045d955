-- Reads that cost only the caller's own work (issue 25, goal 2), the purposes' part.
--
-- 0015 folded a session's counts. The list, the brief and /journal.md still read an
-- unsummarised session's purposes from its calls: the newest distinct ones for its provisional
-- account (of its last 50 calls) and those that may carry a marker (`Decided:`, `Question:`,
-- `TODO:`, of its last 100). For ten ended sessions of 10,000 calls that made the window 1.6x
-- and the brief up to 2.5x what ten sessions of one call cost. So the purposes are folded with
-- the counts, by the same statements and over the same calls (those up to counted_through):
--
-- * folded_purposes: the session's newest distinct purposes, newest first, at most 5;
-- * folded_marked: its newest distinct purposes that may carry a marker, at most 100.
--
-- A read puts the purposes of the calls made after counted_through (a minute or so of an open
-- session, the end call of a closed one) before the folded ones and keeps the first distinct
-- ones. Like a summary, the folded purposes stay with the session when its calls expire, and go
-- with it.
ALTER TABLE journal_sessions
    ADD COLUMN folded_purposes text[] NOT NULL DEFAULT '{}',
    ADD COLUMN folded_marked   text[] NOT NULL DEFAULT '{}';

-- Whether a purpose may carry a marker: the one test the fold and the reads share (the words
-- themselves are read by the summariser's code, `summarize::marked`).
CREATE FUNCTION n8v_marked(p_text text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN p_text ~* '(decided|decision|question|todo)\s*:';

-- The first p_limit distinct texts of p_newer then p_older, in that order.
CREATE FUNCTION n8v_first_distinct(p_newer text[], p_older text[], p_limit integer)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(SELECT u.t FROM unnest(p_newer || p_older) WITH ORDINALITY AS u(t, n)
              GROUP BY u.t ORDER BY min(u.n) LIMIT p_limit);

-- The rules of the two folded lists, for the fold, the backfill and the reads alike: given
-- purposes newest first (p_newer) and the list so far (p_older), the newest distinct ones, at
-- most 5; and the newest distinct ones that may carry a marker, at most 100.
CREATE FUNCTION n8v_recent_purposes(p_newer text[], p_older text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN n8v_first_distinct(p_newer, p_older, 5);

CREATE FUNCTION n8v_marked_purposes(p_newer text[], p_older text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN n8v_first_distinct(ARRAY(SELECT u.t FROM unnest(p_newer) WITH ORDINALITY AS u(t, n)
                                WHERE n8v_marked(u.t) ORDER BY u.n),
                          p_older, 100);

-- The fold of the calls of one of the caller's sessions made in (p_from, p_through], as
-- n8v_own_call_counts (0015) counted them, plus the purposes merged into the folded ones. One
-- pass over those calls.
CREATE FUNCTION n8v_own_call_fold(p_session uuid, p_from timestamptz, p_through timestamptz,
                                  p_purposes text[], p_marked text[],
                                  OUT calls integer, OUT writes integer,
                                  OUT purposes text[], OUT marked text[])
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    newest text[];
BEGIN
    SELECT count(*), count(*) FILTER (WHERE c.wrote),
           coalesce(array_agg(c.purpose ORDER BY c.created_at DESC, c.call_id DESC)
                        FILTER (WHERE c.purpose IS NOT NULL), '{}')
      INTO calls, writes, newest
      FROM journal_calls c
     WHERE c.account_id = n8v_account() AND c.session_id = p_session
       AND (n8v_service() OR c.credential_id = n8v_credential())
       AND c.created_at > p_from AND c.created_at <= p_through;
    purposes := n8v_recent_purposes(newest, p_purposes);
    marked := n8v_marked_purposes(newest, p_marked);
END $$;
REVOKE ALL ON FUNCTION n8v_own_call_fold(uuid, timestamptz, timestamptz, text[], text[])
    FROM PUBLIC;

DROP FUNCTION n8v_own_call_counts(uuid, timestamptz, timestamptz);

-- What is folded already (every session's calls up to its counted_through), folded now, in one
-- statement. Sessions with a summary never show these, so only the others are read.
UPDATE journal_sessions s
   SET folded_purposes = n8v_recent_purposes(f.newest, '{}'),
       folded_marked = n8v_marked_purposes(f.newest, '{}')
  FROM (SELECT s2.account_id, s2.session_id,
               coalesce(array_agg(c.purpose ORDER BY c.created_at DESC, c.call_id DESC)
                            FILTER (WHERE c.purpose IS NOT NULL), '{}') AS newest
          FROM journal_sessions s2
          JOIN journal_calls c ON c.account_id = s2.account_id
                              AND c.session_id = s2.session_id
                              AND c.created_at <= s2.counted_through
         WHERE s2.counted_through > '-infinity' AND s2.summary IS NULL
         GROUP BY s2.account_id, s2.session_id) f
 WHERE s.account_id = f.account_id AND s.session_id = f.session_id;
