-- Whether the authorization request named its redirect URI (issue 44, finding 9): the code's
-- exchange must then name it too (OAuth 2.1 §4.1.3); a request that named none used the
-- client's only registered one, and its exchange may leave it out. Grants made before this
-- migration count as named (the stricter answer; their codes lived a minute).
ALTER TABLE oauth_grants ADD COLUMN redirect_uri_named boolean NOT NULL DEFAULT true;
