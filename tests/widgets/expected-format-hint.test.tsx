// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import type { SiteConfig } from '../../schemas/site-config/types';
import { formTextsFromContent } from '../../widgets/form-engine/form-texts';
import { SiteForm } from '../../widgets/SiteForm';
import enUs from '../../fixtures/content/en_us.json';
import esCo from '../../fixtures/content/es_co.json';
import ptBr from '../../fixtures/content/pt_br.json';
import bancosol from '../../fixtures/sites/bancosol.json';
import northbank from '../../fixtures/sites/northbank.json';
import sabana from '../../fixtures/sites/sabana.json';
import { editInput, placeCaret, renderField, TODAY, typeInto } from './support/render-form';

// SPEC §5: a formatted field shows what it expects as a hint its input is described by, its error
// names that shape, its letters are upper-cased as typed where the site asks, and a submit shows
// every problem at once. Fixtures are imported (jsdom has no file URLs for tests/support).

afterEach(cleanup);

/** An example or a mask as the texts show it: isolated left to right, so it keeps its order in Arabic. */
const isolated = (value: string) => `\u2066${value}\u2069`;

function renderSite(site: unknown, locale: string, content: unknown, props: { serverErrors?: Record<string, string> } = {}) {
  const { schema, uiSchema } = buildFormSchema(site as SiteConfig, locale, 'registration');
  const onSubmit = vi.fn();
  const texts = formTextsFromContent(content as Parameters<typeof formTextsFromContent>[0]);
  const view = render(<SiteForm schema={schema} uiSchema={uiSchema} texts={texts} today={() => TODAY} onSubmit={onSubmit} {...props} />);
  const submit = () => fireEvent.click(document.querySelector('.site-form button[type="submit"]') as HTMLButtonElement);
  return { ...view, onSubmit, submit };
}

const byId = (id: string) => document.getElementById(id) as HTMLInputElement;
const leave = (input: HTMLElement) => fireEvent.blur(input, { relatedTarget: document.body });
const describedBy = (input: HTMLElement) => input.getAttribute('aria-describedby')?.split(' ') ?? [];

describe('the expected format as a hint', () => {
  it("a masked field (bancosol's phone) shows the site's example under the label, and the input is described by it", () => {
    renderSite(bancosol, 'pt_br', ptBr);
    const phone = byId('root_phone');
    expect(byId('root_phone__help').textContent).toBe(`Por exemplo: ${isolated('(11) 98765-4321')}`);
    expect(describedBy(phone)).toEqual(['root_phone__help']);
    phone.focus();
    typeInto(phone, '1198');
    leave(phone);
    expect(describedBy(phone)).toEqual(['root_phone__help', 'root_phone__error']);
    expect(phone.getAttribute('aria-invalid')).toBe('true');
  });

  it("a regexp-only field (sabana's national id) shows the author's example, and its error names it", () => {
    renderSite(sabana, 'es_co', esCo);
    const nationalId = byId('root_nationalId');
    expect(byId('root_nationalId__help').textContent).toBe(`Por ejemplo: ${isolated('1023456789')}`);
    fireEvent.change(nationalId, { target: { value: '0123' } });
    leave(nationalId);
    expect(byId('root_nationalId__error').textContent).toBe(`Escríbelo así: ${isolated('1023456789')}.`);
  });

  it("the gateway's `invalid` for that field reads the same", () => {
    renderSite(sabana, 'es_co', esCo, { serverErrors: { nationalId: 'invalid' } });
    expect(byId('root_nationalId__error').textContent).toBe(`Escríbelo así: ${isolated('1023456789')}.`);
  });

  it('a regexp of digits alone without an example is described by its length', () => {
    const withoutExample = structuredClone(sabana) as unknown as SiteConfig;
    const enrollment = withoutExample.siteFeatureConfigurations.find((feature) => feature.name === 'user_enrollment')!;
    delete enrollment.featureConfig.national_id_example;
    renderSite(withoutExample, 'es_co', esCo);
    expect(byId('root_nationalId__help').textContent).toBe('De 6 a 10 dígitos');
    fireEvent.change(byId('root_nationalId'), { target: { value: '12' } });
    leave(byId('root_nationalId'));
    expect(byId('root_nationalId__error').textContent).toBe('Ingresa de 6 a 10 dígitos.');
  });

  it('a field with no format of its own has no hint and no aria-describedby', () => {
    renderSite(bancosol, 'pt_br', ptBr);
    expect(byId('root_first_name').hasAttribute('aria-describedby')).toBe(false);
    expect(document.getElementById('root_first_name__help')).toBeNull();
  });
});

describe('upper-cased as typed where the site says so', () => {
  it("northbank's masked postal code: k1a0b1 shows K1A 0B1", () => {
    renderSite(northbank, 'en_us', enUs);
    const zipcode = byId('root_address_zipcode');
    zipcode.focus();
    typeInto(zipcode, 'k1a0b1');
    expect(zipcode.value).toBe('K1A 0B1');
  });

  it('a text field with `uppercase` upper-cases as typed and keeps the caret where it was', () => {
    const onChange = vi.fn();
    const schema = {
      type: 'string' as const,
      maxLength: 32,
      'x-rule': { name: 'nationalId' as const, options: { nationalIdType: 'other', regexp: '^[A-Z]{1,2}[0-9]{6}\\([0-9A]\\)$', uppercase: true } },
    };
    renderField('nationalId', schema, { 'ui:options': { labelKey: 'label.nationalId', uppercase: true } }, { onChange });
    const input = screen.getByLabelText<HTMLInputElement>('National ID number');
    placeCaret(input, 0);
    typeInto(input, 'a123456(7)');
    expect(input.value).toBe('A123456(7)');
    expect((onChange.mock.lastCall?.[0] as { nationalId?: string }).nationalId).toBe('A123456(7)');
    placeCaret(input, 1);
    editInput(input, 'Ab123456(7)', 2);
    expect(input.value).toBe('AB123456(7)');
    expect(input.selectionStart).toBe(2);
  });

  it('a field without `uppercase` keeps what was typed', () => {
    renderSite(bancosol, 'pt_br', ptBr);
    fireEvent.change(byId('root_first_name'), { target: { value: 'ana' } });
    expect(byId('root_first_name').value).toBe('ana');
  });
});

describe('a submit shows every problem at once', () => {
  it('bancosol: a bad phone and the empty required fields are all shown, focus on the first', () => {
    const { submit, onSubmit } = renderSite(bancosol, 'pt_br', ptBr);
    const phone = byId('root_phone');
    phone.focus();
    typeInto(phone, '123');
    leave(phone);
    submit();
    expect(onSubmit).not.toHaveBeenCalled();
    const required = ptBr.form.required;
    for (const id of [
      'root_first_name',
      'root_last_name',
      'root_email',
      'root_password',
      'root_confirm_password',
      'root_nationalId',
      'root_address_street',
      'root_address_zipcode',
    ]) {
      expect(document.getElementById(`${id}__error`)?.textContent, id).toBe(required);
    }
    expect(document.getElementById('root_phone__error')?.textContent).toBe(`Digite assim: ${isolated('(11) 98765-4321')}.`);
    expect(document.activeElement?.id).toBe('root_first_name');
  });
});
