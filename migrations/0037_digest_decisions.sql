-- A replaced decision is still said as decided (issue 52, 3c): a digest's text is stored, and
-- its "Decided: …" lines read as current long after a later decision replaced one of them. A
-- digest now keeps the ids of the decision items it holds, and a reader is told beside each line
-- how its decision stands now (`loops::decided::standing`, under the policies, so a replacing
-- decision is named only to a reader who can read it).
--
-- * `decision_ids`: for a week, the decision items its sessions opened or joined (their
--   sources); for a month, those of its week digests. Filled when the digest is stored
--   (`summaries::digests::keep_decision_ids`); NULL only while a digest is claimed, and a
--   digest without ids says nothing new.
-- * Digests stored before this migration get theirs here, from the sessions of their period
--   still held (weeks first, then months from their weeks). A decision whose sessions are all
--   gone is gone too (items live as long as a session stating them), so there is nothing left to
--   match by text: its line stays as it was. (The owner lifts FORCE for the two statements, as
--   migration 0034 does; RLS is back before the transaction commits.)
ALTER TABLE journal_digests ADD COLUMN decision_ids uuid[];

ALTER TABLE journal_digests NO FORCE ROW LEVEL SECURITY;
ALTER TABLE journal_loop_sources NO FORCE ROW LEVEL SECURITY;
ALTER TABLE journal_sessions NO FORCE ROW LEVEL SECURITY;
UPDATE journal_digests d
   SET decision_ids = ARRAY(
        SELECT DISTINCT src.loop_id FROM journal_loop_sources src
          JOIN journal_sessions s ON s.account_id = src.account_id AND s.session_id = src.session_id
         WHERE src.account_id = d.account_id AND src.kind = 'decision' AND NOT s.journal_only
           AND s.started_at >= d.period_start::timestamp AT TIME ZONE 'UTC'
           AND s.started_at < d.period_end::timestamp AT TIME ZONE 'UTC'
         ORDER BY 1)
 WHERE d.period = 'week';
UPDATE journal_digests d
   SET decision_ids = ARRAY(
        SELECT DISTINCT x FROM journal_digests w CROSS JOIN LATERAL unnest(w.decision_ids) x
         WHERE w.account_id = d.account_id AND w.period = 'week'
           AND w.period_start >= d.period_start AND w.period_start < d.period_end
         ORDER BY 1)
 WHERE d.period = 'month';
ALTER TABLE journal_sessions FORCE ROW LEVEL SECURITY;
ALTER TABLE journal_loop_sources FORCE ROW LEVEL SECURITY;
ALTER TABLE journal_digests FORCE ROW LEVEL SECURITY;
