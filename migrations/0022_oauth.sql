-- OAuth 2.1 for MCP clients (issue 32): the service is its own authorization server.
--
--  * oauth_clients: the clients that may ask for a grant, registered before any account is
--    known (RFC 7591 dynamic registration) or fetched from their client ID metadata document.
--    Not tenant data: like operator_credentials, only the owner reaches it (no grants).
--  * oauth_grants: one per approval, tied 1:1 to a row of `credentials` (the grant IS a
--    credential, so every rule keyed by credential holds for it: scopes, repository, sessions,
--    revocation). The authorization code's binding (redirect URI, PKCE challenge, resource)
--    lives here; the code itself only as a hash in oauth_tokens.
--  * oauth_tokens: the codes and refresh tokens, as SHA-256 hashes, each used at most once.
--
-- The token endpoint finds a grant by a token's hash before it knows the account: the owner
-- reads across accounts (as it reads credentials), and writes only while acting for the
-- grant's account (set_config app.account_id), under the own-account policies.

CREATE TABLE oauth_clients (
    client_id      text        NOT NULL PRIMARY KEY CHECK (length(client_id) BETWEEN 1 AND 2000),
    -- 'registered' (RFC 7591) or 'document' (client ID metadata document: client_id is its URL).
    kind           text        NOT NULL CHECK (kind IN ('registered', 'document')),
    client_name    text        NOT NULL CHECK (length(client_name) BETWEEN 1 AND 200),
    redirect_uris  text[]      NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    -- When a document was last fetched (its cache); NULL for registered clients.
    fetched_at     timestamptz,
    -- When a grant was last approved for it: registrations never used expire.
    used_at        timestamptz
);
CREATE INDEX oauth_clients_unused ON oauth_clients (created_at) WHERE used_at IS NULL;

CREATE TABLE oauth_grants (
    account_id     uuid        NOT NULL,
    credential_id  uuid        NOT NULL,
    client_id      text        NOT NULL,
    client_name    text        NOT NULL,
    -- The RFC 8707 resource the tokens are for (the access tokens' audience).
    resource       text        NOT NULL,
    redirect_uri   text        NOT NULL,
    code_challenge text        NOT NULL,
    -- The credential that approved it (the signed-in person's key): its scopes and repository
    -- were the ceiling.
    approved_by    uuid        NOT NULL,
    -- The credential's scopes, copied for the settings page (tenant work cannot read
    -- credentials); the credential row stays what authentication checks.
    scopes         text[]      NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    -- When the client last got a token (the code's exchange or a refresh).
    last_used_at   timestamptz,
    revoked_at     timestamptz,
    PRIMARY KEY (account_id, credential_id),
    FOREIGN KEY (account_id, credential_id)
        REFERENCES credentials (account_id, credential_id) ON DELETE CASCADE
);
ALTER TABLE oauth_grants ENABLE ROW LEVEL SECURITY;
ALTER TABLE oauth_grants FORCE ROW LEVEL SECURITY;
CREATE POLICY oauth_grants_own ON oauth_grants
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));

CREATE TABLE oauth_tokens (
    account_id     uuid        NOT NULL,
    token_hash     bytea       NOT NULL,
    credential_id  uuid        NOT NULL,
    kind           text        NOT NULL CHECK (kind IN ('code', 'refresh')),
    expires_at     timestamptz NOT NULL,
    -- Set when the token was exchanged: a second use is a replay and revokes the grant.
    used_at        timestamptz,
    PRIMARY KEY (account_id, token_hash),
    FOREIGN KEY (account_id, credential_id)
        REFERENCES oauth_grants (account_id, credential_id) ON DELETE CASCADE
);
-- Not UNIQUE (a distributed table's unique index must hold account_id); 256 random bits.
CREATE INDEX oauth_tokens_by_hash ON oauth_tokens (token_hash);
ALTER TABLE oauth_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE oauth_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY oauth_tokens_own ON oauth_tokens
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));

-- The owner's reads across accounts, named for the role that owns the tables (as 0005 does).
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['oauth_grants', 'oauth_tokens'] LOOP
        EXECUTE format('CREATE POLICY %I ON %I FOR SELECT TO %I USING (true)',
                       t || '_owner_lookup', t,
                       (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                         WHERE c.oid = format('public.%I', t)::regclass));
    END LOOP;
END $$;

-- Revoking a grant of the acting account: its credential (so every token of it is refused on
-- the next request, as for a revoked API key) and the grant with it. Tenant work may call it;
-- it reaches only the account it acts for. True when a live grant was revoked.
CREATE FUNCTION n8v_revoke_grant(p_credential uuid) RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    n bigint;
BEGIN
    UPDATE oauth_grants SET revoked_at = now()
     WHERE account_id = n8v_account() AND credential_id = p_credential AND revoked_at IS NULL;
    GET DIAGNOSTICS n = ROW_COUNT;
    UPDATE credentials SET revoked_at = COALESCE(revoked_at, now())
     WHERE account_id = n8v_account() AND credential_id = p_credential
       AND EXISTS (SELECT 1 FROM oauth_grants g
                    WHERE g.account_id = n8v_account() AND g.credential_id = p_credential);
    RETURN n > 0;
END
$$;
REVOKE ALL ON FUNCTION n8v_revoke_grant(uuid) FROM PUBLIC;

-- A grant never outlives the key that approved it: revoking the key revokes the grants it
-- approved (their credentials too, so their tokens are refused on the next request). Else a
-- leaked key could approve a client of its holder's and keep access, refreshing, after the
-- key is revoked. The key is revoked while acting for its account (`admin revoke-key`), and
-- the owner's function acts under the same policies.
CREATE INDEX oauth_grants_by_approver ON oauth_grants (account_id, approved_by);

CREATE FUNCTION n8v_revoke_approved_grants() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL THEN
        UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, now())
         WHERE account_id = NEW.account_id AND approved_by = NEW.credential_id;
        UPDATE credentials c SET revoked_at = now()
          FROM oauth_grants g
         WHERE g.account_id = NEW.account_id AND g.approved_by = NEW.credential_id
           AND c.account_id = g.account_id AND c.credential_id = g.credential_id
           AND c.revoked_at IS NULL;
    END IF;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION n8v_revoke_approved_grants() FROM PUBLIC;
CREATE TRIGGER credentials_revoke_approved_grants AFTER UPDATE OF revoked_at ON credentials
    FOR EACH ROW EXECUTE FUNCTION n8v_revoke_approved_grants();
