import { describe, expect, it } from 'vitest';
import {
  activationMail,
  aliasAttemptMail,
  aliasProofMail,
  passcodeMessage,
  recoveryCodeMessage,
  registrationAttemptMail,
} from '../../../gateway/account/account-mail';
import { mailTextsFrom } from '../../../gateway/mail/mail-texts';
import { realFixtures } from '../support/test-gateway';

/**
 * Mails in the reader's language (docs/decisions/0021-recovery-codes-and-account-notices.md): every
 * content file with the `mail` group has every en_us mail text, with the same placeholders, so no
 * reader gets a half-English mail or a raw `{name}`.
 */
const PLACEHOLDERS = /\{(\w+)\}/g;
const placeholdersOf = (text: string) => [...text.matchAll(PLACEHOLDERS)].map((match) => match[1]).sort();

describe('mail texts', async () => {
  const fixtures = await realFixtures();
  const english = fixtures.content.get('en_us')?.mail ?? {};
  const translated = [...fixtures.content].filter(([locale, bundle]) => locale !== 'en_us' && bundle.mail !== undefined);

  it('en_us holds the mail group, and every other content file translates all of it', () => {
    expect(Object.keys(english).length).toBeGreaterThan(15);
    expect(translated.map(([locale]) => locale).sort()).toEqual(['ar_qa', 'de_de', 'es_co', 'fr_ca', 'pt_br', 'zh_hk']);
    for (const [locale, bundle] of translated) {
      expect(Object.keys(bundle.mail ?? {}).sort(), locale).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) expect(placeholdersOf(bundle.mail?.[key] ?? ''), `${locale} ${key}`).toEqual(placeholdersOf(text));
    }
  });

  it('writes each existing mail in the reader’s locale, every placeholder filled; an unknown locale reads English', () => {
    const texts = mailTextsFrom(fixtures.content);
    const target = { origin: 'https://portal.example', siteId: 'eurobank', locale: 'de_de' };
    for (const locale of ['en_us', ...translated.map(([code]) => code), 'xx_yy']) {
      const reader = texts(locale);
      for (const message of [
        activationMail(reader, 'a@example.com', target, 'token'),
        registrationAttemptMail(reader, 'a@example.com', target),
        recoveryCodeMessage(reader, 'email', 'a@example.com', '123456', 10),
        passcodeMessage(reader, 'sms', '2025550143', '123456', 10),
        aliasProofMail(reader, 'a@example.com', 'First Bank', '123456', 10),
        aliasAttemptMail(reader, 'a@example.com', 'First Bank'),
      ]) {
        expect(`${message.subject}\n${message.text}`, locale).not.toMatch(PLACEHOLDERS);
      }
    }
    expect(passcodeMessage(texts('de_de'), 'email', 'a@example.com', '654321', 10).text).toBe(
      'Ihr Einmal-Code lautet 654321. Er ist 10 Minuten gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.',
    );
    expect(texts('xx_yy').locale).toBe('en_us');
    // ADR 0013 "Content fallback by language": a Mexican reader gets the nearest Spanish, not English.
    expect(texts('es_mx').locale).toBe('es_co');
    expect(passcodeMessage(texts('es_mx'), 'email', 'a@example.com', '654321', 10).text).toBe(
      passcodeMessage(texts('es_co'), 'email', 'a@example.com', '654321', 10).text,
    );
    expect(texts('pt_pt').locale).toBe('pt_br');
    expect(texts('de_de').moment(new Date('2026-11-26T02:30:00Z'))).toBe('26. November 2026 um 02:30 UTC');
  });
});
