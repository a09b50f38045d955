-- Decisions are items (issue 46, part 1): each decision a session hands on gets an id (`itm_…`)
-- as its open questions and next steps do, opened by the same close step, joined by a repeat of
-- its text, kept by the same sources and deleted by the same trigger (migration 0018). A later
-- decision can replace it:
--
-- * `kind` gains `decision`. A decision is `open` while it is current (it never reads as stale)
--   and `replaced` once a later one replaced it; it is never `done`, `answered` or `dropped`.
-- * `replaced_by` is the decision that replaced it, `closed_session_id` the session that said so
--   and `closed_at` when. When the replacing decision goes (its sessions deleted), the replaced
--   one stays replaced and loses the reference, as an item a deleted session closed stays closed:
--   the replacement was the person's word, and reviving the old decision would present as
--   current what they had replaced.
-- * Who may replace: the close policy (`journal_loops_close`): an item of the caller's own
--   account that it can read. The service's own closes (the quiet sweep) replace only what the
--   closing session's credential opened in a session whose scopes it holds (`journal::loops::
--   replacing`), as they join items.

ALTER TABLE journal_loops DROP CONSTRAINT journal_loops_kind_check;
ALTER TABLE journal_loops ADD CONSTRAINT journal_loops_kind_check
    CHECK (kind IN ('question', 'next_step', 'decision'));
ALTER TABLE journal_loops DROP CONSTRAINT journal_loops_state_check;
ALTER TABLE journal_loops ADD CONSTRAINT journal_loops_state_check
    CHECK (state IN ('open', 'done', 'answered', 'dropped', 'replaced'));
ALTER TABLE journal_loops ADD CONSTRAINT journal_loops_decision_states
    CHECK ((kind = 'decision') = (state IN ('open', 'replaced')) OR state = 'open');

ALTER TABLE journal_loops ADD COLUMN replaced_by uuid;
ALTER TABLE journal_loops ADD CONSTRAINT journal_loops_replaced_by_a_replaced_one
    CHECK (replaced_by IS NULL OR (state = 'replaced' AND replaced_by <> loop_id));
ALTER TABLE journal_loops ADD CONSTRAINT journal_loops_replaced_by_fkey
    FOREIGN KEY (account_id, replaced_by) REFERENCES journal_loops (account_id, loop_id)
    ON DELETE SET NULL (replaced_by);
-- What a decision replaced, for the brief and the foreign key's deletes.
CREATE INDEX journal_loops_by_replacement ON journal_loops (account_id, replaced_by)
    WHERE replaced_by IS NOT NULL;

-- A purpose marking a replacement (`Replaces itm_…: …`) may carry a marker too: the fold keeps
-- it with the others (migration 0016; the words are read by `summarize::marked`).
CREATE OR REPLACE FUNCTION n8v_marked(p_text text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN p_text ~* '(decided|decision|question|todo|replaces\s+itm_[0-9a-z]+)\s*:';
