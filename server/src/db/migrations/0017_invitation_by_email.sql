-- Whether the inviter typed the invitee's e-mail address (then they may see it in the pending
-- list); an invitation made by picking a person (by id) shows the address masked. Invitations
-- from before are shown masked.
ALTER TABLE invitations ADD COLUMN by_email boolean NOT NULL DEFAULT false;
