-- Two replacements racing could each replace the other's decision (issue 52, 3a: `P` replaced
-- by `Q` and `Q` by `P`, committed at once from two keys): a cycle, in which no decision is
-- current and none can be replaced again. Replacing now locks both decisions, in id order, and
-- refuses a replacement that is no longer current (`loops::replacing`). Cycles already stored
-- are repaired here: the later replacement stands, and the earliest replacement of each cycle
-- is undone, so its decision is current again. (The owner lifts FORCE for the one statement, as
-- migration 0003 does; RLS is back before the transaction commits.)
ALTER TABLE journal_loops NO FORCE ROW LEVEL SECURITY;
WITH RECURSIVE chain (start_account, start_id, account_id, loop_id) AS (
    SELECT account_id, loop_id, account_id, replaced_by
      FROM journal_loops WHERE replaced_by IS NOT NULL
  UNION ALL
    SELECT c.start_account, c.start_id, l.account_id, l.replaced_by
      FROM chain c JOIN journal_loops l ON l.account_id = c.account_id AND l.loop_id = c.loop_id
     WHERE l.replaced_by IS NOT NULL
) CYCLE account_id, loop_id SET looped USING path,
-- The decisions in a cycle: those their own chain returns to.
in_cycle AS (
    SELECT DISTINCT start_account AS account_id, start_id AS loop_id FROM chain
     WHERE loop_id = start_id
),
-- Of each cycle, its earliest replacement: no member of its cycle was replaced before it.
undone AS (
    SELECT r.account_id, r.loop_id FROM journal_loops r
      JOIN in_cycle i ON i.account_id = r.account_id AND i.loop_id = r.loop_id
     WHERE NOT EXISTS (
        SELECT 1 FROM chain c
          JOIN journal_loops m ON m.account_id = c.account_id AND m.loop_id = c.loop_id
         WHERE c.start_account = r.account_id AND c.start_id = r.loop_id
           AND (m.closed_at, m.loop_id) < (r.closed_at, r.loop_id))
)
UPDATE journal_loops l
   SET state = 'open', replaced_by = NULL, closed_at = NULL, closed_session_id = NULL
  FROM undone u
 WHERE l.account_id = u.account_id AND l.loop_id = u.loop_id;
ALTER TABLE journal_loops FORCE ROW LEVEL SECURITY;
