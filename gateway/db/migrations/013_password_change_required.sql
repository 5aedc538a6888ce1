-- ADR 0009 "Compromised credentials", SPEC §2 compromised-credentials: a card holder who signed in
-- with a password on the breached list must replace it before anything else. Kept on the account,
-- not the browser session, so a refresh, another tab or another sign-in cannot step around it; set
-- at every password sign-in, cleared when the password is replaced (change, reset or the detour).
alter table users add column password_change_required boolean not null default false;
