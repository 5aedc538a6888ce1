import { describe, expect, it } from 'vitest';
import { FIELD_RULES, validateField, validateQueryParam, validateReturnUrl } from '../../../schemas/validators';
import { GOLDEN_TABLES, GOLDEN_TODAY, QUERY_PARAM_TABLE, RETURN_URL_ORIGIN, RETURN_URL_TABLE, type GoldenTable } from './golden-tables';

// ADR 0005: golden tables of valid and invalid values per validator. Every row runs through
// the registry the schema dispatches to and through validateField, the entry point browser and
// gateway call, and both must give the row's answer.
describe.each(GOLDEN_TABLES.map((table): [string, GoldenTable] => [table.title, table]))('golden table: %s', (_, table) => {
  it('holds at least 10 valid and 10 invalid rows', () => {
    expect(table.rows.filter(([, , expected]) => expected === null).length).toBeGreaterThanOrEqual(10);
    expect(table.rows.filter(([, , expected]) => expected !== null).length).toBeGreaterThanOrEqual(10);
  });

  it.each(table.rows.map(([value, options, expected]) => [value, options, expected] as const))('%j with %o gives %o', (value, options, expected) => {
    const inputs = { today: GOLDEN_TODAY };
    expect(FIELD_RULES[table.rule](value, { ...options, ...inputs })).toEqual(expected);
    expect(validateField(value, { rule: table.rule, options, required: true }, inputs)).toEqual(expected);
  });
});

describe('golden table: §5 return URLs (a {locale}/ segment, never off the site origin)', () => {
  it('holds at least 20 hostile values', () => {
    expect(RETURN_URL_TABLE.filter(([, valid]) => !valid).length).toBeGreaterThanOrEqual(20);
  });

  it.each(RETURN_URL_TABLE)('%j is valid: %s', (value, valid) => {
    expect(validateReturnUrl(value, { origin: RETURN_URL_ORIGIN })).toEqual(valid ? null : { key: 'invalid' });
  });
});

describe('golden table: §5 query parameters (no tags, URLs or relative paths)', () => {
  it.each(QUERY_PARAM_TABLE)('%j is valid: %s', (value, valid) => {
    expect(validateQueryParam(value)).toEqual(valid ? null : { key: 'invalid' });
  });
});

// Kept out of PHONE_TABLE: no fixture site has pt_br without a phone regexp, and the gateway runs the table's
// rows on real site fields only (tests/gateway/forms/validate-payload.test.ts).
describe('§5 phone: pt_br requires the 9 after the area code by itself, without a site regexp to back it', () => {
  it.each([
    ['11987654321', {}, null],
    ['11887654321', {}, { key: 'invalid' }],
    ['(11) 98765-4321', { mask: '(00) 00000-0000' }, null],
    ['(11) 88765-4321', { mask: '(00) 00000-0000' }, { key: 'invalid' }],
  ])('%j with %o gives %o', (value, options, expected) => {
    expect(validateField(value, { rule: 'phone', options: { ...options, locale: 'pt_br' }, required: true })).toEqual(expected);
  });
});
