-- A grant's scopes are stored once (issue 43): in its credential's row, which authentication
-- checks on every request and the refresh narrows against. The copy in oauth_grants (kept for
-- the settings page, as tenant work cannot read credentials) goes; the settings page reads the
-- credential's through n8v_grant_scopes instead.
--
-- n8v_grant_scopes runs as the owner (who reads credentials) and answers only for a grant of
-- the acting account (n8v_account(), as n8v_revoke_grant): never another account's row, and
-- never an API key's. No function of the earlier migrations reads oauth_grants.scopes
-- (n8v_revoke_grant and n8v_revoke_approved_grants read revoked_at and approved_by only).

CREATE FUNCTION n8v_grant_scopes(p_credential uuid) RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT c.scopes FROM credentials c
     WHERE c.account_id = n8v_account() AND c.credential_id = p_credential
       AND EXISTS (SELECT 1 FROM oauth_grants g
                    WHERE g.account_id = c.account_id AND g.credential_id = c.credential_id)
$$;
REVOKE ALL ON FUNCTION n8v_grant_scopes(uuid) FROM PUBLIC;

ALTER TABLE oauth_grants DROP COLUMN scopes;
