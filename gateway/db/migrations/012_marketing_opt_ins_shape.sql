-- SPEC §3 marketing opt-ins have one stored shape, `{ "email": { "optin": true } }` (ADR 0010), but
-- registration stored the form's checkbox list `{ "email": true }` as it came, so the profile read those
-- choices as unticked and its next save wrote false. Every boolean entry becomes `{ "optin": <flag> }`
-- (normaliseMarketingOptIns in schemas/entities/marketing-opt-ins.ts, the same rule); any other entry is
-- kept as it is. The row's `version` is not bumped: the person's choices do not change, only how they are
-- written, so a form open at the old version still saves without a conflict.
update user_sites
   set attributes = jsonb_set(
         attributes,
         '{marketing_opt_ins}',
         (select jsonb_object_agg(
                   entry.key,
                   case
                     when jsonb_typeof(entry.value) = 'boolean' then jsonb_build_object('optin', entry.value)
                     else entry.value
                   end)
            from jsonb_each(attributes -> 'marketing_opt_ins') as entry))
 where jsonb_typeof(attributes -> 'marketing_opt_ins') = 'object'
   and exists (
         select 1
           from jsonb_each(attributes -> 'marketing_opt_ins') as entry
          where jsonb_typeof(entry.value) = 'boolean'
       );
