-- SAML 2.0 single sign-on (decision 059). No foreign keys: these tables stand alone in the backup
-- load order.
-- Rollback plan: DROP TABLE saml_requests; DROP TABLE saml_assertions; ALTER TABLE sessions DROP COLUMN sso_logout;

-- AuthnRequests sent to an identity provider and not yet answered: the response's InResponseTo
-- must name one of them (taken by the answer, so each is used once). Ten minutes at most.
CREATE TABLE saml_requests (
  request_id text PRIMARY KEY CHECK (char_length(request_id) BETWEEN 1 AND 200),
  provider   text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT ms_now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX saml_requests_expires_idx ON saml_requests (expires_at);

-- Assertions already used to sign in, by the identity provider's ID for them, kept until they could
-- no longer be accepted anyway (their NotOnOrAfter plus the allowed clock skew): a replay is refused.
CREATE TABLE saml_assertions (
  provider     text NOT NULL,
  assertion_id text NOT NULL CHECK (char_length(assertion_id) BETWEEN 1 AND 200),
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (provider, assertion_id)
);
CREATE INDEX saml_assertions_expires_idx ON saml_assertions (expires_at);

-- What the provider's own sign-out needs of a session signed in through SAML: the NameID (and its
-- format and qualifiers) and the SessionIndex of the assertion. NULL for every other session.
ALTER TABLE sessions ADD COLUMN sso_logout jsonb;
