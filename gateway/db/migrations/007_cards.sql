-- Cards (docs/decisions/0011-cards-api.md "Card data at rest"). Like last_four and the
-- fingerprint (001), the other card columns get shapes that cannot hold a card number: a product
-- type code, a random card identifier without a long run of digits, an issuer id of at most 8 digits.
alter table assets
  add constraint assets_product_type_code check (product_type is null or product_type ~ '^[A-Z][0-9]?$'),
  add constraint assets_vop_card_id_shape check (vop_card_id is null or (vop_card_id ~ '^[A-Za-z0-9_-]{8,64}$' and vop_card_id !~ '[0-9]{12}')),
  add constraint assets_issuer_bid_shape check (issuer_bid is null or issuer_bid ~ '^[0-9]{1,8}$');

-- ADR 0011 "default first, then oldest first": cards enrolled in one call share their time, so the
-- order they were given in breaks the tie.
alter table assets add column enrolment_order bigint generated always as identity;
