-- Receipts (issue 46, part 3): a read that hands the journal to a conversation — the catch-up
-- brief (REST, MCP, the brief resource), `/journal.md` and the window resource — already
-- records a call in the conversation's session, with the sessions it showed in `result_ids`.
-- It now also keeps the items (`itm_…`) it handed over there, and how many characters it
-- answered (`result_chars`, set only on such reads), so the call is the receipt: the session
-- reads "what was this conversation told when it started, and from where", and an item reads
-- which later conversations were given it. No table is added; a receipt goes with its call
-- (with its session, by retention, with the account).

ALTER TABLE journal_calls ADD COLUMN result_chars integer
    CHECK (result_chars IS NULL OR result_chars >= 0);
-- Which hand-overs named an item: only hand-over calls are indexed, so the write path of every
-- other call is untouched.
CREATE INDEX journal_calls_handed_over ON journal_calls USING gin (result_ids)
    WHERE result_chars IS NOT NULL;
