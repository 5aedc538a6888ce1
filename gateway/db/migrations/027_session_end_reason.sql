-- Why a session was ended for its holder, when the holder did not end it there: `password_changed` when a new
-- password (a change or a reset on another device) signed every other session out (gateway/account/new-password.ts).
-- A call with such a session answers 401 UNAUTHENTICATED with `sessionEnded`, so the sign-in page can say why instead
-- of signing the holder out silently. Null for a sign-out, an expiry, or any other end.
alter table sessions add column revoked_reason text check (revoked_reason in ('password_changed'));
