import Form from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { createRoot } from 'react-dom/client';

/**
 * The browser figures' reference (reference-pages.ts): a form as RJSF and its AJV validator draw it out of
 * the box, nothing else. The bench's server puts the form's JSON Schema and uiSchema (the translator's, reduced to
 * what stock RJSF understands) in the page as data, so one build serves the sign-in and the registration.
 */
const data = document.getElementById('bench-form')?.textContent;
const { schema, uiSchema } = JSON.parse(data ?? '{}') as { schema: RJSFSchema; uiSchema: UiSchema };
const container = document.getElementById('root');
if (container) createRoot(container).render(<Form schema={schema} uiSchema={uiSchema} validator={validator} />);
