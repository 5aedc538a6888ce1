import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentBundle } from '../../../gateway/site-files/load-fixtures';
import { pluralFormOf } from '../../../schemas/locales/counted-text';
import { pseudoLocalise, pseudoLocaliseTexts } from '../../../schemas/locales/pseudo-locale';
import { API_BASES, buildTestGateway, realFixtures } from '../support/test-gateway';

let app: FastifyInstance;
let english: ContentBundle;
let portuguese: ContentBundle;
beforeAll(async () => {
  app = await buildTestGateway();
  const { content } = await realFixtures();
  english = content.get('en_us') ?? {};
  portuguese = content.get('pt_br') ?? {};
});
afterAll(() => app.close());

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
const valid = { version: '2', contentType: 'errors', level: '-1', locale: 'en_us', siteId: 'firstbank' };

describe.each(API_BASES)('GET %s/bin/aem/rest (SPEC §7 content)', (base) => {
  it('answers one group of texts for the locale', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query(valid)}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ siteId: 'firstbank', locale: 'en_us', version: 2, contentType: 'errors', content: english.errors });
  });

  it('fills keys missing in the locale from en_us, key by key', async () => {
    // The fixtures really exercise the fallback: pt_br leaves some English keys untranslated.
    const untranslated = Object.entries(english).some(([group, texts]) => Object.keys(texts).some((key) => portuguese[group]?.[key] === undefined));
    expect(untranslated).toBe(true);
    for (const group of Object.keys(english)) {
      const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: group, locale: 'pt_br' })}` });
      // A counted text pt_br writes keeps only pt_br's forms (ADR 0013 "Counted texts").
      const own = portuguese[group] ?? {};
      const countedInPortuguese = new Set(Object.keys(own).flatMap((key) => pluralFormOf(key)?.base ?? []));
      const expected = Object.fromEntries(
        Object.entries({ ...english[group], ...own }).filter(([key]) => Object.hasOwn(own, key) || !countedInPortuguese.has(pluralFormOf(key)?.base ?? '')),
      );
      expect(response.json().content).toEqual(expected);
    }
    const form = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'form', locale: 'pt_br' })}` });
    expect(english.form?.['passwordRules.status.one']).toBeDefined();
    expect(form.json().content['passwordRules.status.one']).toBeUndefined();
  });

  it('names card products in the page’s script: dohabank’s Arabic cards group writes every product type in Arabic, the bank’s name its {product}', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `${base}/bin/aem/rest?${query({ ...valid, siteId: 'dohabank', contentType: 'cards', locale: 'ar_qa' })}`,
    });
    const products = Object.entries(response.json().content as Record<string, string>).filter(([key]) => key.startsWith('product.'));
    expect(products.map(([key]) => key).sort()).toEqual(
      Object.keys(english.cards ?? {})
        .filter((key) => key.startsWith('product.'))
        .sort(),
    );
    for (const [key, text] of products) {
      expect(text, key).toContain('{product}');
      // Beside the bank's name, the words are Arabic, not the English tier names ("Gold", "Signature").
      expect(text.replace('{product}', ''), key).toMatch(/^[\s\p{Script=Arabic}]+$/u);
    }
  });

  it('answers every group, keyed group.key, when contentType is "all" or absent (version 3 too)', async () => {
    const { contentType: _, ...withoutType } = valid;
    for (const params of [
      { ...valid, contentType: 'all' },
      { ...withoutType, version: '3' },
    ]) {
      const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query(params)}` });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.contentType).toBe('all');
      expect(body.content[`errors.${String(Object.keys(english.errors ?? {})[0])}`]).toBe(Object.values(english.errors ?? {})[0]);
      expect(Object.keys(body.content)).toHaveLength(Object.values(english).reduce((sum, group) => sum + Object.keys(group).length, 0));
    }
  });

  it('answers the pseudo-locale en_xa as every en_us text pseudo-localised, in both calls (ADR 0013)', async () => {
    for (const group of Object.keys(english)) {
      const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: group, locale: 'en_xa' })}` });
      expect(response.json()).toMatchObject({ locale: 'en_xa', content: pseudoLocaliseTexts(english[group] ?? {}) });
    }
    const all = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'all', locale: 'en_xa' })}` });
    expect(all.json().content['common.title.login']).toBe(pseudoLocalise(english.common?.['title.login'] ?? ''));
    const cms = await app.inject({ method: 'GET', url: `${base}/cmsapi/content.data.json/vpp/firstbank/firstbank/cards?locale=en_xa` });
    expect(cms.json().content).toEqual(pseudoLocaliseTexts(english.cards ?? {}));
  });

  // ADR 0013 "Content fallback by language": CLDR parents before English.
  it('answers a locale without a content file from the nearest file of its language, then en_us, key by key', async () => {
    const spanish = (await realFixtures()).content.get('es_co') ?? {};
    for (const locale of ['es_mx', 'es_ar', 'es_es']) {
      const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'common', locale })}` });
      expect(response.json()).toMatchObject({ locale, content: { ...english.common, ...spanish.common } });
      expect(response.json().content['title.login']).toBe(spanish.common?.['title.login']);
    }
    const pt = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'common', locale: 'pt_pt' })}` });
    expect(pt.json().content['title.login']).toBe(portuguese.common?.['title.login']);
    const cms = await app.inject({ method: 'GET', url: `${base}/cmsapi/content.data.json/vpp/firstbank/firstbank/common?locale=es_mx` });
    expect(cms.json().content['title.login']).toBe(spanish.common?.['title.login']);
  });

  it('never answers simplified Chinese with traditional characters: zh_tw reads zh_hk, zh_cn reads en_us', async () => {
    const traditional = (await realFixtures()).content.get('zh_hk') ?? {};
    const tw = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'common', locale: 'zh_tw' })}` });
    expect(tw.json().content['title.login']).toBe(traditional.common?.['title.login']);
    const cn = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'common', locale: 'zh_cn' })}` });
    expect(cn.json().content).toEqual(english.common);
  });

  it('answers a counted text with the forms of one file: ar_ae gets all six Arabic forms, zh_hk no English "one"', async () => {
    const arabic = (await realFixtures()).content.get('ar_qa') ?? {};
    const ae = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'signIn', locale: 'ar_ae' })}` });
    for (const form of ['zero', 'one', 'two', 'few', 'many', 'other']) {
      expect(ae.json().content[`error.otpInvalid.${form}`], form).toBe(arabic.signIn?.[`error.otpInvalid.${form}`]);
    }
    const hk = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'signIn', locale: 'zh_hk' })}` });
    expect(hk.json().content['error.otpInvalid.other']).toBe((await realFixtures()).content.get('zh_hk')?.signIn?.['error.otpInvalid.other']);
    expect(hk.json().content['error.otpInvalid.one']).toBeUndefined();
  });

  it('uses en_us for a well-formed locale without a content file', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, locale: 'sv_se' })}` });
    expect(response.json()).toMatchObject({ locale: 'sv_se', content: english.errors });
  });

  it.each([
    ['version', { version: '4' }],
    ['version', { version: 'two' }],
    ['level', { level: '0' }],
    ['locale', { locale: 'english' }],
    ['locale', { locale: '<b>en</b>' }],
    ['siteId', { siteId: '../etc' }],
    ['contentType', { contentType: 'err ors' }],
  ])('answers 400 naming %s for a bad value', async (parameter, override) => {
    const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, ...override })}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'VALIDATION_FAILED', fields: { [parameter]: 'invalid' } });
    expect(response.json().message).toContain(parameter);
  });

  it('says what a bad value should be', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, version: '9', level: '0' })}` });
    expect(response.json().message).toBe('Invalid query parameter: version must be one of 2, 3; level must be -1.');
  });

  it('answers 400 naming every missing parameter', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?contentType=errors` });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ version: 'required', locale: 'required', siteId: 'required' });
  });

  it('answers 404 JSON for a group that does not exist', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/bin/aem/rest?${query({ ...valid, contentType: 'nope' })}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
  });
});

describe.each(API_BASES)('GET %s/cmsapi/content.data.json/vpp/{siteId}/{path} (SPEC §7 content, version 3)', (base) => {
  it('answers the group named by the last path segment, in the requested locale', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/cmsapi/content.data.json/vpp/vppcards/vppcards/cards?locale=pt_br` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      siteId: 'vppcards',
      locale: 'pt_br',
      version: 3,
      contentType: 'cards',
      content: { ...english.cards, ...portuguese.cards },
    });
  });

  it('defaults to en_us', async () => {
    const response = await app.inject({ method: 'GET', url: `${base}/cmsapi/content.data.json/vpp/vppcards/errors` });
    expect(response.json()).toMatchObject({ locale: 'en_us', content: english.errors });
  });

  it.each(['vppcards/nothing-here', 'vppcards/__proto__', 'vppcards/constructor', ''])('answers 404 JSON for the unknown path "%s"', async (path) => {
    const response = await app.inject({ method: 'GET', url: `${base}/cmsapi/content.data.json/vpp/vppcards/${path}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('answers 400 for a malformed locale or site id', async () => {
    const badLocale = await app.inject({ method: 'GET', url: `${base}/cmsapi/content.data.json/vpp/vppcards/cards?locale=EN` });
    expect(badLocale.statusCode).toBe(400);
    expect(badLocale.json().fields).toEqual({ locale: 'invalid' });
    const badSite = await app.inject({ method: 'GET', url: `${base}/cmsapi/content.data.json/vpp/${encodeURIComponent('<x>')}/cards` });
    expect(badSite.statusCode).toBe(400);
    expect(badSite.json().fields).toEqual({ siteId: 'invalid' });
  });
});
