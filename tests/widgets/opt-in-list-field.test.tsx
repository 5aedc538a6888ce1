// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonSchema } from '../../schemas/forms/json-schema';
import { renderField } from './support/render-form';

afterEach(cleanup);

const OPT_INS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { email: { type: 'boolean', default: false }, transactional: { type: 'boolean', default: false }, sms: { type: 'boolean', default: false } },
  additionalProperties: false,
};

function renderOptIns(allOfTheAbove: boolean) {
  const ui = { 'ui:field': 'OptInListField', 'ui:order': ['email', 'transactional', 'sms'], 'ui:options': { labelKey: 'optins.title', allOfTheAbove } };
  const onChange = vi.fn();
  renderField('marketing_opt_ins', OPT_INS_SCHEMA, ui, { onChange });
  const group = screen.getByRole('group', { name: 'Marketing preferences' });
  const box = (name: string) => within(group).getByRole<HTMLInputElement>('checkbox', { name });
  const stored = () => (onChange.mock.lastCall?.[0] as { marketing_opt_ins?: unknown }).marketing_opt_ins;
  return { group, box, stored };
}

describe('OptInListField (SPEC §3 marketing opt-ins)', () => {
  it('lists each opt-in with its content label, unticked, in ui:order, the first with the field id', () => {
    const { group, box } = renderOptIns(true);
    const labels = within(group)
      .getAllByRole('checkbox')
      .map((checkbox) => (checkbox as HTMLInputElement).labels?.[0]?.textContent);
    expect(labels).toEqual([
      'Email me offers and program news',
      'Use my card transactions to personalize my offers',
      'Text me offers (SMS)',
      'All of the above',
    ]);
    expect(box('Email me offers and program news').id).toBe('root_marketing_opt_ins');
    expect(
      within(group)
        .getAllByRole('checkbox')
        .some((checkbox) => (checkbox as HTMLInputElement).checked),
    ).toBe(false);
  });

  it('stores a ticked box as subscribed', () => {
    const { box, stored } = renderOptIns(true);
    fireEvent.click(box('Text me offers (SMS)'));
    expect(stored()).toEqual({ email: false, transactional: false, sms: true });
  });

  it('"All of the above" ticks every opt-in, and clears them all again', () => {
    const { box, stored } = renderOptIns(true);
    const all = box('All of the above');
    fireEvent.click(all);
    expect(stored()).toEqual({ email: true, transactional: true, sms: true });
    expect(box('Email me offers and program news').checked).toBe(true);
    expect(all.checked).toBe(true);

    fireEvent.click(all);
    expect(stored()).toEqual({ email: false, transactional: false, sms: false });
    expect(box('Text me offers (SMS)').checked).toBe(false);
  });

  it('"All of the above" follows the others: ticked when each is, unticked when one is cleared', () => {
    const { box } = renderOptIns(true);
    const all = box('All of the above');
    fireEvent.click(box('Email me offers and program news'));
    fireEvent.click(box('Use my card transactions to personalize my offers'));
    expect(all.checked).toBe(false);
    fireEvent.click(box('Text me offers (SMS)'));
    expect(all.checked).toBe(true);
    fireEvent.click(box('Use my card transactions to personalize my offers'));
    expect(all.checked).toBe(false);
  });

  it('has no "All of the above" when the site does not offer it', () => {
    const { group } = renderOptIns(false);
    expect(within(group).queryByRole('checkbox', { name: 'All of the above' })).toBeNull();
    expect(within(group).getAllByRole('checkbox')).toHaveLength(3);
  });
});
