// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import { formTextsFromContent } from '../../widgets/form-engine/form-texts';
import { SiteForm } from '../../widgets/SiteForm';
import ptBr from '../../fixtures/content/pt_br.json';
import bancosol from '../../fixtures/sites/bancosol.json';
import type { SiteConfig } from '../../schemas/site-config/types';
import { VALID_BANCOSOL_REGISTRATION } from './support/bancosol-registration';
import { TODAY, typeInto } from './support/render-form';

afterEach(cleanup);

// The fixture is imported (the jsdom environment has no file URLs for tests/support/site-fixtures).
// bancosol: pt_br, cpf, phone mask (00) 00000-0000, postal code 00000-000, DD/MM/YYYY, min age 18, privacy policy A.
const { schema, uiSchema } = buildFormSchema(bancosol as unknown as SiteConfig, 'pt_br', 'registration');
const texts = formTextsFromContent(ptBr);

function renderRegistration() {
  const onSubmit = vi.fn();
  render(<SiteForm schema={schema} uiSchema={uiSchema} texts={texts} language="pt-BR" today={() => TODAY} onSubmit={onSubmit} />);
  return { onSubmit, submit: () => fireEvent.click(screen.getByRole('button', { name: 'Enviar' })) };
}

const field = (label: RegExp | string) => screen.getByLabelText<HTMLInputElement>(label);
const leave = (input: HTMLElement) => fireEvent.blur(input, { relatedTarget: document.body });
const change = (label: RegExp | string, value: string) => fireEvent.change(field(label), { target: { value } });
const errorOf = (input: HTMLElement) => document.getElementById(`${input.id}__error`)?.textContent ?? null;

function fillValidRegistration() {
  change(/^Nome/, 'Ana');
  change(/^Sobrenome/, 'Souza');
  change(/^E-mail/, 'ana@example.com');
  change(/^Senha/, 'Sunny-Day-42');
  change(/^Confirmar senha/, 'Sunny-Day-42');
  change('Dia', '12');
  change('Mês', '04');
  change('Ano', '1990');
  for (const [label, digits] of [
    [/^Celular/, '11987654321'],
    [/^CPF/, '52998224725'],
    [/^CEP/, '01310100'],
  ] as const) {
    const input = field(label);
    input.focus();
    typeInto(input, digits);
  }
  change(/^Rua/, 'Avenida Paulista');
  change(/^Número\s*\*?$/, '1578');
  change(/^Bairro/, 'Bela Vista');
  change(/^Cidade/, 'São Paulo');
  change(/^Estado/, 'SP');
  fireEvent.click(screen.getByRole('checkbox', { name: /Li e aceito a Política de Privacidade/ }));
}

describe('SiteForm with the bancosol registration schema', () => {
  it('shows no error while a person is still in a field', () => {
    renderRegistration();
    const firstName = field(/^Nome/);
    firstName.focus();
    fireEvent.change(firstName, { target: { value: 'Ana<' } });
    expect(errorOf(firstName)).toBeNull();
    expect(firstName.getAttribute('aria-invalid')).toBeNull();
    expect(document.querySelectorAll('.field__error')).toHaveLength(0);
  });

  it('shows the content text of the error once the person leaves the field, and only there', () => {
    renderRegistration();
    const firstName = field(/^Nome/);
    fireEvent.change(firstName, { target: { value: 'Ana<' } });
    leave(firstName);
    expect(errorOf(firstName)).toBe('Digite um valor válido.'); // SPEC §5 names: key `error`
    expect(firstName.getAttribute('aria-invalid')).toBe('true');
    expect(document.querySelectorAll('.field__error')).toHaveLength(1);
  });

  it('says a pasted control or hidden character is the problem, next to the name, address or e-mail it is in (ADR 0005 "Characters")', () => {
    renderRegistration();
    const message = ptBr.form.invalidCharacter;
    for (const [label, value] of [
      [/^Nome/, 'Ana\u202Eavlis'],
      [/^Sobrenome/, 'Sou\u0000za'],
      [/^Rua/, 'Avenida\tPaulista'],
      [/^Cidade/, 'São\u200BPaulo'],
      [/^E-mail/, 'ana\u0000@example.com'],
    ] as const) {
      const input = field(label);
      fireEvent.change(input, { target: { value } });
      leave(input);
      expect(errorOf(input), String(label)).toBe(message);
    }
    expect(document.querySelectorAll('.field__error')).toHaveLength(5);
    fireEvent.change(field(/^Nome/), { target: { value: 'Ana' } });
    expect(errorOf(field(/^Nome/))).toBeNull();
  });

  it('says "required" for a field left empty, without a keystroke in the form', () => {
    renderRegistration();
    const email = field(/^E-mail/);
    email.focus();
    leave(email);
    expect(errorOf(email)).toBe('Este campo é obrigatório.');
  });

  it('follows what the person types once the field was left', () => {
    renderRegistration();
    const password = field(/^Senha/);
    fireEvent.change(password, { target: { value: 'sunny' } });
    leave(password);
    expect(errorOf(password)).toBe('Sua senha não atende a 4 dos requisitos abaixo.');
    fireEvent.change(password, { target: { value: 'Sunny-Day' } });
    expect(errorOf(password)).toBe('Sua senha não atende a 1 dos requisitos abaixo.');
    fireEvent.change(password, { target: { value: 'Sunny-Day-42' } });
    expect(errorOf(password)).toBeNull();
  });

  it('on a submit with errors, shows them all, focuses the first invalid field on screen and does not submit', () => {
    const { onSubmit, submit } = renderRegistration();
    fillValidRegistration();
    change(/^E-mail/, 'not an e-mail');
    change(/^CEP/, '');
    change(/^Confirmar senha/, 'Other-Day-42');
    submit();

    expect(onSubmit).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(field(/^E-mail/));
    expect(errorOf(field(/^E-mail/))).toBe('Digite um valor válido.');
    expect(errorOf(field(/^Confirmar senha/))).toBe('As senhas devem ser iguais.');
    expect(errorOf(field(/^CEP/))).toBe('Este campo é obrigatório.');
    expect(document.querySelectorAll('.field__error')).toHaveLength(3);
  });

  it('follows ui:order, not the order of the schema, to find the first invalid field', () => {
    const order = uiSchema['ui:order'] as string[];
    const addressFirst = { ...uiSchema, 'ui:order': ['address', ...order.filter((name) => name !== 'address')] };
    render(<SiteForm schema={schema} uiSchema={addressFirst} texts={texts} today={() => TODAY} onSubmit={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(document.activeElement?.id).toBe('root_address_street');
  });

  it('after a failed submit, validates as the person corrects', () => {
    const { submit } = renderRegistration();
    submit();
    const lastName = field(/^Sobrenome/);
    expect(errorOf(lastName)).toBe('Este campo é obrigatório.');
    fireEvent.change(lastName, { target: { value: 'Souza' } });
    expect(errorOf(lastName)).toBeNull();
    expect(document.activeElement).toBe(field(/^Nome/));
  });

  it('submits valid data with the bare characters of masked fields', () => {
    const { onSubmit, submit } = renderRegistration();
    fillValidRegistration();
    expect(field(/^Celular/).value).toBe('(11) 98765-4321');
    submit();

    expect(document.querySelectorAll('.field__error')).toHaveLength(0);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.lastCall?.[0]).toEqual(VALID_BANCOSOL_REGISTRATION);
  });

  it('does not submit while the privacy policy (display A) is unticked', () => {
    const { onSubmit, submit } = renderRegistration();
    fillValidRegistration();
    const pp = screen.getByRole('checkbox', { name: /Li e aceito a Política de Privacidade/ });
    fireEvent.click(pp);
    submit();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(pp);
  });
});

describe('SiteForm as the server renders it (ADR 0024)', () => {
  it('draws every field read-only and the submit button disabled, so nothing is typed or sent before the app takes the form over', () => {
    const html = renderToString(<SiteForm schema={schema} uiSchema={uiSchema} texts={texts} language="pt-BR" today={() => TODAY} onSubmit={() => undefined} />);
    const page = new DOMParser().parseFromString(html, 'text/html');
    const form = page.querySelector('form');
    expect(form?.getAttribute('method')).toBe('post');
    const textFields = [...page.querySelectorAll<HTMLInputElement>('input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"])')];
    expect(textFields.length).toBeGreaterThan(10);
    expect(textFields.filter((input) => !input.readOnly).map((input) => input.id)).toEqual([]);
    expect(page.querySelector<HTMLButtonElement>('button[type="submit"]')?.disabled).toBe(true);
  });

  it('in the browser the same form takes input and can be sent', () => {
    renderRegistration();
    expect(field(/^Nome/).readOnly).toBe(false);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Enviar' }).disabled).toBe(false);
  });
});
