-- One account per card number on a site (docs/decisions/0011-cards-api.md "One account per card number
-- on a site"): a site is one card-linked offer programme, and a number enrolled on it by two accounts
-- would be paid its cashback twice. `programme_enrolled` marks the one card row of the site's
-- programme for a number; the unique index keeps it one, whatever races the application loses.

-- No enrolment may slip in between finding the existing duplicates and indexing them.
lock table assets in share row exclusive mode;

alter table assets add column programme_enrolled boolean not null default true;

-- A live database may already hold one number on several accounts of a site (every enrolment before
-- this rule was allowed). Nothing is deleted: the oldest enrolment keeps the programme, the later ones
-- stay on their accounts, listed, but not enrolled (no card id is shown, cashback NOT_ELIGIBLE).
update assets set programme_enrolled = false
 where id in (
   select id
     from (select id, row_number() over (partition by site_id, pan_fingerprint order by created_at, enrolment_order) as place
             from assets) ranked
    where place > 1
 );

create unique index assets_one_account_per_site_card on assets (site_id, pan_fingerprint) where programme_enrolled;
