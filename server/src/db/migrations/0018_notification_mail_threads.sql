-- Immediate notification e-mail is coalesced per recipient and thread (decision 020): at most one
-- mail per person and thread (a shared artifact, or a shared portfolio for items about no
-- artifact) per window; what arrives within the window waits and goes out in the next mail.
-- The row is claimed in the statement that takes the items, so two server processes never both
-- send; it is useless once its window has passed (housekeeping deletes it).
-- Rollback plan: DROP TABLE notification_mail_threads;
CREATE TABLE notification_mail_threads (
  user_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  thread       text NOT NULL CHECK (thread ~ '^[ap][0-9]+$'),
  last_sent_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, thread)
);
