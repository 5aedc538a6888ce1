// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import Form from '@rjsf/core';
import type { FieldProps, Registry } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildFormSchema } from '../../schemas/forms/build-form-schema';
import { FORM_NAMES } from '../../schemas/forms/form-names';
import { createEvalFreeValidator } from '../../widgets/form-engine/eval-free-validator';
import { SiteForm } from '../../widgets/SiteForm';
import type { SiteConfig } from '../../schemas/site-config/types';
import { TODAY } from './support/render-form';

afterEach(cleanup);

/** The registry RJSF's Form hands its fields, read from inside a field. */
function formRegistry(): Registry {
  let seen: Registry | undefined;
  const Probe = ({ registry }: FieldProps) => {
    seen = registry;
    return null;
  };
  render(<Form schema={{ type: 'string' }} uiSchema={{ 'ui:field': Probe }} validator={createEvalFreeValidator({ today: () => TODAY })} />);
  if (!seen) throw new Error('the probe field never rendered');
  return seen;
}

describe("RJSF's default registry, as the app ships it (ADR 0016)", () => {
  it('holds the fields, templates and widgets our schemas reach, and none of the ones they cannot', () => {
    const { fields, templates, widgets } = formRegistry();
    expect(Object.keys(fields).sort()).toEqual([
      'ArrayField',
      'BooleanField',
      'FallbackField',
      'NullField',
      'NumberField',
      'ObjectField',
      'OptionalDataControlsField',
      'SchemaField',
      'StringField',
    ]);
    // `select`, `checkbox` and `password` come from widgets/registry.ts, which SiteForm always passes.
    expect(Object.keys(widgets).sort()).toEqual(['EmailWidget', 'HiddenWidget', 'TextWidget']);
    // anyOf/oneOf, layout grids and the file, date, colour, range and rating inputs stay out of the bundle.
    for (const dropped of ['AnyOfField', 'OneOfField', 'LayoutGridField', 'CyclicSchemaField']) expect(fields).not.toHaveProperty(dropped);
    for (const dropped of ['FileWidget', 'AltDateWidget', 'RatingWidget', 'RadioWidget', 'TextareaWidget']) expect(widgets).not.toHaveProperty(dropped);
    expect(templates.UnsupportedFieldTemplate).toBeTypeOf('function');
  });

  // A registry missing something a schema needs throws while drawing (no widget, no template) or
  // shows RJSF's "unsupported" notice: every form of every site proves the lean one is enough.
  // Every fixture by glob (jsdom has no file URLs for tests/support/site-fixtures.ts): a new site is covered with no edit.
  const sites = Object.values(import.meta.glob<SiteConfig>('../../fixtures/sites/*.json', { eager: true, import: 'default' }));
  it.each(sites.map((site) => [site.siteId, site] as const))('%s: every form is drawn whole', (_siteId, site) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const form of FORM_NAMES) {
        const { schema, uiSchema } = buildFormSchema(site, 'en_us', form);
        const { container, unmount } = render(<SiteForm schema={schema} uiSchema={uiSchema} today={() => TODAY} onSubmit={() => undefined} />);
        expect(container.querySelector('.unsupported-field'), `${form}: an unsupported field`).toBeNull();
        for (const key of Object.keys(schema.properties ?? {})) {
          expect(container.querySelector(`[id^="root_${key}"]`), `${form}: field ${key}`).not.toBeNull();
        }
        unmount();
      }
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });
});
