-- Activation asks for the password chosen at registration (docs/decisions/0009-account-lifecycle-api.md
-- "Activation"): the link proves the mailbox, the password proves that the person opening it chose the
-- account's password. Each link allows 5 wrong passwords, as a mailed code allows 5 wrong codes (ADR 0008);
-- the 5th spends the link, so a link read by someone else is not a way to guess the registrant's password.
alter table activation_tokens add column password_attempts int not null default 0 check (password_attempts >= 0);
