-- Limits that hold under abuse (decision 017, 2026-11-27).
-- New counters: failures with a valid reset code (per code and per account), failed logins per
-- client address across accounts, and reset e-mails per e-mail and requester.
-- Rollback plan: delete the rows of the new kinds, then restore the CHECK of 0005.
ALTER TABLE auth_events DROP CONSTRAINT auth_events_kind_check;
ALTER TABLE auth_events ADD CONSTRAINT auth_events_kind_check CHECK (kind IN (
  'login_failure', 'forgot_request', 'reset_failure', 'member_search',
  'reset_code_failure', 'reset_account_failure', 'login_address_failure', 'forgot_email'
));

-- Addresses that have signed in to an account: a failing address that never did waits longer
-- once the account collects many failures, while the owner's own addresses are not slowed.
-- Rollback plan: DROP TABLE login_addresses;
CREATE TABLE login_addresses (
  user_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  address      text NOT NULL,
  signed_in_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, address)
);

-- "Keep me signed in": a web session kept across browser restarts (a long-lived cookie); other
-- web sessions live in a cookie the browser forgets when it closes.
-- Rollback plan: ALTER TABLE sessions DROP COLUMN persistent;
ALTER TABLE sessions ADD COLUMN persistent boolean NOT NULL DEFAULT true;
