// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../schemas/forms/json-schema';
import { renderField } from './support/render-form';

afterEach(cleanup);

const PASSWORD_SCHEMA: JsonSchema = { type: 'string', maxLength: 128, 'x-rule': { name: 'password' } };

function renderPassword(showRules: boolean) {
  const ui = {
    'ui:widget': 'PasswordWidget',
    'ui:autocomplete': 'new-password',
    'ui:options': { labelKey: 'label.password', ...(showRules ? { showRules: true } : {}) },
  };
  renderField('password', PASSWORD_SCHEMA, ui, { required: true });
  return screen.getByLabelText<HTMLInputElement>(/^Password/);
}

/** Each rule of the checklist: its text and whether it is shown as met, visually (class) and in words. */
function checklist() {
  const list = screen.getByRole('list', { name: 'Your password needs:' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => ({
      rule: item.querySelector('.password-rules__text')?.firstChild?.textContent,
      met: item.classList.contains('password-rules__rule--met'),
      said: item.querySelector('.visually-hidden')?.textContent?.trim(),
    }));
}

describe('PasswordWidget (SPEC §5 password)', () => {
  it('lists the rules from content and ticks them off as the password grows', () => {
    const input = renderPassword(true);
    fireEvent.change(input, { target: { value: 'sunny' } });
    expect(checklist()).toEqual([
      { rule: 'At least 8 characters', met: false, said: '(not met yet)' },
      { rule: 'At least one number', met: false, said: '(not met yet)' },
      { rule: 'At least one lowercase letter', met: true, said: '(met)' },
      { rule: 'At least one uppercase letter', met: false, said: '(not met yet)' },
      { rule: 'At least one special character, such as ! # $ %', met: false, said: '(not met yet)' },
      { rule: 'No spaces', met: true, said: '(met)' },
    ]);
    expect(screen.getByRole('status').textContent).toBe('2 of 6 password requirements met');

    fireEvent.change(input, { target: { value: 'Sunny-Day-42' } });
    expect(checklist().every((rule) => rule.met && rule.said === '(met)')).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('6 of 6 password requirements met');
  });

  it('an empty field shows no rule as met, "No spaces" included', () => {
    renderPassword(true);
    expect(checklist().filter((rule) => rule.met)).toEqual([]);
    expect(checklist().find((rule) => rule.rule === 'No spaces')?.said).toBe('(not met yet)');
  });

  it('describes the input with the rules', () => {
    const input = renderPassword(true);
    expect(input.getAttribute('aria-describedby')).toBe('root_password__rules');
  });

  it('has no checklist without showRules (a confirmation field)', () => {
    renderPassword(false);
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows and hides the password with a toggle button that says whether it is pressed', () => {
    const input = renderPassword(false);
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(input.type).toBe('password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(input.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(input.type).toBe('password');
  });

  it('does not count moving to the toggle as leaving the field', () => {
    const input = renderPassword(true);
    const toggle = screen.getByRole('button', { name: 'Show password' });
    fireEvent.change(input, { target: { value: 'short' } });
    fireEvent.blur(input, { relatedTarget: toggle });
    expect(screen.queryByText(/doesn't meet/)).toBeNull();
    fireEvent.blur(toggle, { relatedTarget: document.body });
    expect(screen.getByText("Your password doesn't meet 4 of the requirements below.")).toBeTruthy();
  });
});
