import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { loadCommonPasswords, offlineCompromisedCheck, PWNED_RANGE_URL, rangeQueryCompromisedCheck } from '../../../gateway/account/compromised-passwords';

/** ADR 0009 "Compromised credentials": the bundled offline list and the optional k-anonymity range query. */
describe('the bundled list (fixtures/common-passwords)', () => {
  it('holds at least the 10,000 most common breached passwords, read once', () => {
    const list = loadCommonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(10_000);
    expect(loadCommonPasswords()).toBe(list);
    expect(list.has('')).toBe(false);
  });

  it('matches case-sensitively', async () => {
    const check = offlineCompromisedCheck();
    expect(await check.isCompromised('password')).toBe(true);
    expect(await check.isCompromised('P@ssw0rd')).toBe(true);
    // The list has "P@ssw0rd" and "p@ssw0rd", not this casing.
    expect(await check.isCompromised('P@SSW0RD')).toBe(false);
    expect(await check.isCompromised('Rewards#2025x')).toBe(false);
  });
});

describe('the online range query (PWNED_RANGE_CHECK=true)', () => {
  const password = 'Rewards#2025x';
  const sha1 = createHash('sha1').update(password).digest('hex').toUpperCase();
  const listed = (count: number) => vi.fn(async () => new Response(`0000000000000000000000000000000000A:3\r\n${sha1.slice(5)}:${count}\r\n`));

  it('sends only the first 5 hex digits of the SHA-1 and finds the suffix', async () => {
    const fetchRange = listed(12);
    expect(await rangeQueryCompromisedCheck(offlineCompromisedCheck(), fetchRange as unknown as typeof fetch).isCompromised(password)).toBe(true);
    expect(fetchRange).toHaveBeenCalledWith(`${PWNED_RANGE_URL}${sha1.slice(0, 5)}`, expect.anything());
  });

  it('treats a padding line (count 0) and a failing service as not listed, and asks nothing for a password on the offline list', async () => {
    expect(await rangeQueryCompromisedCheck(offlineCompromisedCheck(), listed(0) as unknown as typeof fetch).isCompromised(password)).toBe(false);
    const failing = vi.fn(async () => Promise.reject(new Error('offline')));
    expect(await rangeQueryCompromisedCheck(offlineCompromisedCheck(), failing as unknown as typeof fetch).isCompromised(password)).toBe(false);
    const unused = vi.fn();
    expect(await rangeQueryCompromisedCheck(offlineCompromisedCheck(), unused as unknown as typeof fetch).isCompromised('password')).toBe(true);
    expect(unused).not.toHaveBeenCalled();
  });
});
