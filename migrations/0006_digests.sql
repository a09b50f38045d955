-- Week and month digests: sessions older than 14 days are rolled into one digest per ISO week,
-- weeks older than 90 days into one digest per calendar month. Digests outlive the journal's
-- retention (month digests are kept indefinitely) and go only with the account.

CREATE TABLE journal_digests (
    account_id     uuid           NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    digest_id      uuid           NOT NULL,
    period         text           NOT NULL CHECK (period IN ('week', 'month')),
    period_start   date           NOT NULL,
    period_end     date           NOT NULL,
    -- Every scope recorded by the sessions digested: a reader must hold all of them, as for
    -- the sessions themselves.
    scopes         text[]         NOT NULL,
    session_count  integer        NOT NULL,
    summary        jsonb          NOT NULL,
    model          text           NOT NULL,
    input_tokens   bigint         NOT NULL DEFAULT 0,
    output_tokens  bigint         NOT NULL DEFAULT 0,
    cost_usd       numeric(14, 8) NOT NULL DEFAULT 0,
    note           text,
    created_at     timestamptz    NOT NULL,
    PRIMARY KEY (account_id, digest_id),
    -- One digest per period: the claim a digest job takes before it pays a model.
    UNIQUE (account_id, period, period_start)
);
ALTER TABLE journal_digests ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_digests FORCE ROW LEVEL SECURITY;
CREATE POLICY journal_digests_visible ON journal_digests FOR SELECT
    USING (account_id = (SELECT n8v_account())
           AND scopes <@ (SELECT n8v_scopes())
           AND (SELECT n8v_repository()) IS NULL);
CREATE POLICY journal_digests_delete ON journal_digests FOR DELETE
    USING (account_id = (SELECT n8v_account())
           AND (SELECT n8v_scopes()) @> ARRAY['chats:delete']
           AND scopes <@ (SELECT n8v_scopes())
           AND (SELECT n8v_repository()) IS NULL);
CREATE POLICY journal_digests_service ON journal_digests FOR ALL
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()))
    WITH CHECK ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));
