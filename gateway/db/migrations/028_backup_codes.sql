-- One word per thing (README "Words"): the authenticator's single-use stand-ins are backup codes; "recovery
-- code" is the password-recovery passcode alone (SPEC §2, §8). The table, the proof kind and queued notices
-- take the new word; stored hashes keep their input, so every code handed out before still works.
alter table mfa_recovery_codes rename to mfa_backup_codes;
alter index mfa_recovery_codes_user_hash rename to mfa_backup_codes_user_hash;

alter table session_proofs drop constraint session_proofs_kind_check;
update session_proofs set kind = 'backup-code' where kind = 'recovery-code';
alter table session_proofs add constraint session_proofs_kind_check
  check (kind in ('password', 'passcode', 'totp', 'backup-code', 'sso'));

update account_jobs set payload = jsonb_set(payload, '{notice}', '"backup-codes-renewed"')
  where kind = 'account-notice' and payload ->> 'notice' = 'recovery-codes-renewed';
