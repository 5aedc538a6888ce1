import { describe, expect, it } from 'vitest';
import {
  activationMail,
  aliasAttemptMail,
  aliasProofMail,
  passcodeMessage,
  recoveryCodeMessage,
  registrationAttemptMail,
} from '../../../gateway/account/account-mail';
import { noticeMessage, type AccountNoticeJob } from '../../../gateway/account/account-notices';
import { mailTextsFrom } from '../../../gateway/mail/mail-texts';
import { realFixtures } from '../support/test-gateway';

/**
 * Mails in the reader's language (docs/decisions/0021-backup-codes-and-account-notices.md): every
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
        activationMail(reader, 'a@example.com', target, 'First Bank', 'token'),
        registrationAttemptMail(reader, 'a@example.com', target, 'First Bank'),
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
    // One digit system (schemas/locales/intl-format.ts): the Arabic mail writes its numbers, as the page does, in Latin digits.
    expect(texts('ar_qa').moment(new Date('2026-11-26T02:30:00Z'))).toBe('26 نوفمبر 2026 في 2:30 ص UTC');
  });

  it('the welcome (activation) mail and the "someone tried to register" mail name the bank, in every language', () => {
    const texts = mailTextsFrom(fixtures.content);
    const target = { origin: 'https://portal.example', siteId: 'firstbank', locale: 'en_us' };
    for (const locale of ['en_us', ...translated.map(([code]) => code)]) {
      const welcome = activationMail(texts(locale), 'a@example.com', target, 'FirstBank Rewards', 'token');
      expect(welcome.subject, locale).toContain('FirstBank Rewards');
      expect(welcome.text, locale).toContain('FirstBank Rewards');
      expect(registrationAttemptMail(texts(locale), 'a@example.com', target, 'FirstBank Rewards').text, locale).toContain('FirstBank Rewards');
    }
  });

  // The usted forms of the texts es_co wrote before: a possessive "su/sus", "usted", and its imperatives and past forms.
  const USTED =
    /\b(usted|su|sus|ignore|inicie|abra|active|confirme|comuníquese|proteja|espere|restablezca|revise|ingrese|pida|use|desactive|guárdelos|confírmelo|restablézcala|necesita|perdió|fue usted)\b/i;

  it('Spanish mails speak to the holder as the Spanish pages do (tú, ADR 0013): es_mx reads es_co for both, so no mail says usted', () => {
    const spanish = fixtures.content.get('es_co');
    const texts = mailTextsFrom(fixtures.content);
    // The pages' register, as their sign-in intro says it: "Inicia sesión con tu correo…".
    expect(spanish?.signIn?.['login.intro']).toMatch(/\btu\b/);
    for (const [key, text] of Object.entries(spanish?.mail ?? {})) expect(text, key).not.toMatch(USTED);
    // The holder's pages that still said usted (recovery codes, the new phone's code) now say tú too.
    for (const group of ['signIn', 'account', 'profile', 'cards', 'optins', 'form', 'errors', 'common'] as const) {
      for (const [key, text] of Object.entries(spanish?.[group] ?? {})) {
        // Third-person "su" (a device's session, a sign-in's state, the account's other data) is not the reader's.
        expect(text.replace(/\b(su state|sus demás datos|cierra su sesión)\b/gi, ''), `${group} ${key}`).not.toMatch(USTED);
      }
    }
    expect(texts('es_mx').text('passwordChanged.subject')).toBe('Se cambió tu contraseña');
  });

  it('writes every notice of a change (ADR 0021 "Telling the holder") in each language, naming the bank, with the link and every placeholder filled', () => {
    const texts = mailTextsFrom(fixtures.content);
    const change = { userId: 'u', siteId: 'eurobank', origin: 'https://portal.example', at: '2026-11-26T02:30:00Z' };
    const jobs: AccountNoticeJob[] = [
      { notice: 'password-changed', ...change },
      { notice: 'authenticator-enrolled', ...change },
      { notice: 'authenticator-removed', ...change },
      { notice: 'backup-codes-renewed', ...change },
      { notice: 'device-trusted', ...change },
      { notice: 'new-device-sign-in', ...change },
      { notice: 'alias-proved', ...change, alias: 'l***@example.net' },
      { notice: 'phone-changed', ...change, newPhoneEnd: '42' },
      { notice: 'phone-changed', ...change, newPhoneEnd: null },
    ];
    const secureLink = 'https://portal.example/eurobank/de_de/account/secure-account?token=T';
    for (const locale of ['en_us', ...translated.map(([code]) => code)]) {
      const reader = texts(locale);
      const subjects = new Set<string>();
      for (const job of jobs) {
        const mail = noticeMessage(reader, { channel: 'email', to: 'a@example.com', site: 'Eurobank Vorteilsprogramm', secureLink }, job);
        expect(`${mail.subject}\n${mail.text}`, `${locale} ${job.notice}`).not.toMatch(PLACEHOLDERS);
        expect(mail.text, `${locale} ${job.notice}`).toContain('Eurobank Vorteilsprogramm');
        expect(mail.text, `${locale} ${job.notice}`).toContain(`${secureLink}\n`);
        expect(mail.text, `${locale} ${job.notice}`).toMatch(/\b7\b/);
        subjects.add(mail.subject);
      }
      // Each notice has a subject of its own, but the two phone notices share one.
      expect(subjects.size, locale).toBe(jobs.length - 1);
      for (const newPhoneEnd of ['42', null]) {
        const text = noticeMessage(
          reader,
          { channel: 'sms', to: '0301234567', site: 'Eurobank', secureLink },
          { notice: 'phone-changed', ...change, newPhoneEnd },
        );
        expect(text.text, locale).not.toMatch(PLACEHOLDERS);
        expect(text.text.endsWith(secureLink), locale).toBe(true);
        expect(text.text.length, locale).toBeLessThan(280);
      }
    }
    const german = noticeMessage(
      texts('de_de'),
      { channel: 'email', to: 'a@example.com', site: 'Eurobank Vorteilsprogramm', secureLink },
      { notice: 'phone-changed', ...change, newPhoneEnd: '42' },
    );
    expect(german.text).toBe(
      'Die Telefonnummer Ihres Kontos bei Eurobank Vorteilsprogramm wurde am 26. November 2026 um 02:30 UTC in eine Nummer mit der Endung 42 geändert.\n\n' +
        'Waren Sie das, ist nichts weiter zu tun.\n\n' +
        `Waren Sie es nicht, sichern Sie Ihr Konto jetzt: ${secureLink}\n` +
        'Damit wird Ihr Konto auf allen Geräten abgemeldet, und keinem Gerät wird mehr vertraut; danach wählen Sie ein neues Passwort. Der Link funktioniert einmal und ist 7 Tage gültig.',
    );
  });
});
