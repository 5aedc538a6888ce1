import { useEffect, useMemo, useRef, useState } from 'react';
import Form, { type IChangeEvent } from '@rjsf/core';
import {
  mergeObjects,
  toErrorSchema,
  type ErrorSchema,
  type Experimental_DefaultFormStateBehavior,
  type RJSFSchema,
  type UiSchema as RjsfUiSchema,
} from '@rjsf/utils';
import type { JsonSchema, UiSchema } from '../schemas/forms/json-schema';
import { normaliseFormData } from '../schemas/forms/normalise-form-data';
import { errorsOfLeftFields, localizeErrors } from './form-engine/error-display';
import { createEvalFreeValidator, localCalendarDay, type TodayProvider } from './form-engine/eval-free-validator';
import type { OfferCategory, SiteFormContext } from './form-engine/form-context';
import { textLookup, type FormTexts, type TextValues } from './form-engine/form-texts';
import { useHydrated } from './form-engine/use-hydrated';
import { FORM_REGISTRY } from './registry';
import './widgets.css';

/** Text-like inputs of the form's top-level string fields whose page value the data lacks (RJSF ids are `{idPrefix}_{key}`). */
function valuesTypedBeforeHydration(form: HTMLFormElement, schema: RJSFSchema, data: SiteFormData, idPrefix: string): SiteFormData {
  const typed: SiteFormData = {};
  const fields = new Map<string, Element>();
  for (const element of Array.from(form.elements)) if (element.id !== '') fields.set(element.id, element);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (typeof property !== 'object' || property.type !== 'string') continue;
    const input = fields.get(`${idPrefix}_${key}`);
    if (!(input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement)) continue;
    if (input instanceof HTMLInputElement && (input.type === 'checkbox' || input.type === 'radio')) continue;
    const held = data[key];
    if (input.value !== '' && (held === undefined || held === '')) typed[key] = input.value;
  }
  return typed;
}

export type SiteFormData = Record<string, unknown>;

export interface SiteFormProps {
  /** A form as the translator builds it: `buildFormSchema(site, locale, form)`. */
  schema: JsonSchema;
  uiSchema: UiSchema;
  /**
   * The site's content as one flat map (`formTextsFromContent({ form, optins, common })`): keys of
   * the `form` group as they are, other groups prefixed (`optins.email`). Missing keys fall back to
   * the bundled en_us defaults.
   */
  texts?: FormTexts;
  /** BCP 47 tag of the page language, for the names the browser provides (countries); default: `<html lang>` as it is when the form renders. */
  language?: string;
  /** The data to show. A new object replaces what the form holds; the object `onChange` gave back does not. */
  formData?: SiteFormData;
  onChange?: (data: SiteFormData) => void;
  /** Called with valid data only; masked fields hold their bare characters. */
  onSubmit: (data: SiteFormData) => void;
  /** Default: content `common.button.submit`. */
  submitText?: string;
  /** The day ages are computed on (SPEC §5 dob); default: today in the person's calendar. */
  today?: TodayProvider;
  /** The offer categories the screen loaded, for `offers_preference` (SPEC §2). */
  offerCategories?: readonly OfferCategory[];
  disabled?: boolean;
  /**
   * Errors the server found after a submit (a gateway's VALIDATION_FAILED fields, or a refusal about
   * one field): field path (`email`, `address.zipcode`) → error key, shown under that field with the
   * same texts as the form's own errors until the person changes that field. A new object replaces them.
   */
  serverErrors?: Readonly<Record<string, string>>;
  /** The first part of every field id (`root_email`), unique per form where several share a page (the site studio). Default `root`. */
  idPrefix?: string;
}

const NO_TEXTS: FormTexts = {};
const NO_CATEGORIES: readonly OfferCategory[] = [];
const NO_SERVER_ERRORS: Readonly<Record<string, string>> = {};

/** The value at a dotted field path (`cards.0.pan`). */
function valueAt(data: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, segment) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined), data);
}

/**
 * A `const` is a rule, never a default: the privacy policy box (`const: true` for display A,
 * SPEC §5) must start unticked, as consent is the person's to give.
 */
const DEFAULT_FORM_STATE_BEHAVIOR: Experimental_DefaultFormStateBehavior = { constAsDefaults: 'never' };

function pageLanguage(): string {
  return (typeof document === 'undefined' ? '' : document.documentElement.lang) || 'en';
}

/**
 * A site's form, drawn by RJSF with our registry and checked by the eval-free validator (ADR
 * 0006). When errors show: a field's error appears once the person has left that field and from
 * then on follows what they type; the first submit checks everything, shows every error, moves
 * focus to the first invalid field in screen order, and from then on the whole form validates as
 * it changes. Invalid data never reaches `onSubmit`.
 *
 * Before that first submit RJSF validates nothing itself: SiteForm runs the same validator and
 * hands RJSF only the errors of the fields left so far, as `extraErrors` (RJSF's channel for
 * errors found outside the form), since RJSF's live validation shows all errors or none.
 */
export function SiteForm({
  schema,
  uiSchema,
  texts = NO_TEXTS,
  language,
  formData,
  onChange,
  onSubmit,
  submitText,
  today,
  offerCategories = NO_CATEGORIES,
  disabled = false,
  serverErrors = NO_SERVER_ERRORS,
  idPrefix = 'root',
}: SiteFormProps) {
  const rjsfSchema = schema as RJSFSchema;

  // One validator for the form's life (RJSF rebuilds its schema utilities when it changes); it asks
  // the latest `today` each time it runs.
  const todayRef = useRef(today);
  useEffect(() => {
    todayRef.current = today;
  });
  // eslint-disable-next-line react-hooks/refs -- the ref is read when the validator runs, after render, not while the validator is made
  const [validator] = useState(() => createEvalFreeValidator({ today: () => (todayRef.current ?? localCalendarDay)() }));

  const [data, setData] = useState<SiteFormData>(() => formData ?? {});
  const [givenData, setGivenData] = useState(formData);
  if (formData !== givenData) {
    setGivenData(formData);
    if (formData !== undefined) setData(formData);
  }

  // The data the server's errors are about: a field's server error shows while it still holds that value.
  const [givenServerErrors, setGivenServerErrors] = useState(serverErrors);
  const [serverErrorsData, setServerErrorsData] = useState(data);
  if (serverErrors !== givenServerErrors) {
    setGivenServerErrors(serverErrors);
    setServerErrorsData(data);
  }

  const [leftFields, setLeftFields] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);

  const pageTag = language ?? pageLanguage();
  const text = useMemo(() => textLookup(texts, pageTag), [texts, pageTag]);
  const transformErrors = useMemo(() => localizeErrors(text), [text]);
  // ADR 0024: the server's form is read-only, and cannot be sent, until the app has taken it over: nothing typed into
  // it is lost, and no submit posts it to the page's address before the app can send it.
  const interactive = useHydrated();
  const formUiSchema = useMemo<RjsfUiSchema>(
    () => ({
      ...uiSchema,
      'ui:submitButtonOptions': { submitText: submitText ?? text('common.button.submit'), props: { disabled: !interactive } },
    }),
    [uiSchema, submitText, text, interactive],
  );
  const formContext = useMemo<SiteFormContext>(() => ({ texts, language: pageTag, offerCategories }), [texts, pageTag, offerCategories]);
  const errorsShown = useMemo(() => {
    if (submitted || leftFields.size === 0) return undefined;
    const { errors } = validator.validateFormData(data, rjsfSchema, undefined, transformErrors, formUiSchema);
    return errorsOfLeftFields(errors, leftFields, idPrefix);
  }, [submitted, validator, data, rjsfSchema, transformErrors, formUiSchema, leftFields, idPrefix]);
  const serverErrorsShown = useMemo(() => {
    const current = Object.entries(serverErrors).filter(([path]) => valueAt(data, path) === valueAt(serverErrorsData, path));
    if (current.length === 0) return undefined;
    // The server names the rule (`tooLong`), not its numbers: the form's own check of the same value gives them (the limit's count).
    const own = validator.validateFormData(data, rjsfSchema).errors;
    const paramsOf = (path: string, key: string): TextValues =>
      (own.find((error) => error.property === `.${path}` && error.name === key)?.params as TextValues | undefined) ?? {};
    // The same words as the form's own errors, a field's expected format included (SPEC §5).
    const errors = transformErrors(
      current.map(([path, key]) => ({ property: `.${path}`, name: key, params: paramsOf(path, key), message: key, stack: `.${path} ${key}`, schemaPath: '' })),
      formUiSchema,
    );
    return toErrorSchema(errors);
  }, [serverErrors, serverErrorsData, data, validator, rjsfSchema, transformErrors, formUiSchema]);
  const extraErrors = useMemo<ErrorSchema | undefined>(() => {
    if (serverErrorsShown === undefined) return errorsShown;
    return errorsShown === undefined ? serverErrorsShown : mergeObjects(errorsShown, serverErrorsShown, true);
  }, [errorsShown, serverErrorsShown]);

  // ADR 0024: a form the server rendered can be typed into, or filled by a password manager, before the app hydrates
  // it; React keeps those values in the page but the form's data never heard of them. Once, on mount, they are taken in.
  const formRef = useRef<Form<SiteFormData>>(null);
  useEffect(() => {
    const element = formRef.current?.formElement.current as HTMLFormElement | null | undefined;
    const typed = element ? valuesTypedBeforeHydration(element, rjsfSchema, data, idPrefix) : {};
    if (Object.keys(typed).length === 0) return;
    const next = { ...data, ...typed };
    setData(next);
    onChange?.(next);
    // Only the values of the page as it was hydrated; later ones come through the form's own events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const handleChange = (event: IChangeEvent<SiteFormData>) => {
    const next = event.formData ?? {};
    setData(next);
    onChange?.(next);
  };
  const handleBlur = (id: string) => setLeftFields((left) => (left.has(id) ? left : new Set(left).add(id)));
  // Sent as the gateway will store it (schemas/forms/normalise-form-data.ts): names trimmed, letters upper-cased where asked.
  const handleSubmit = (event: IChangeEvent<SiteFormData>) => onSubmit(normaliseFormData(schema, event.formData ?? {}));

  return (
    <Form<SiteFormData>
      ref={formRef}
      // Before the app takes the form over (or without JavaScript) a submit posts it: never its fields in the address.
      method="post"
      className="site-form"
      schema={rjsfSchema}
      idPrefix={idPrefix}
      uiSchema={formUiSchema}
      formData={data}
      formContext={formContext}
      validator={validator}
      {...FORM_REGISTRY}
      transformErrors={transformErrors}
      extraErrors={extraErrors}
      liveValidate={submitted ? 'onChange' : undefined}
      showErrorList={false}
      focusOnFirstError
      noHtml5Validate
      omitExtraData
      experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE_BEHAVIOR}
      disabled={disabled}
      readonly={!interactive}
      onChange={handleChange}
      onBlur={handleBlur}
      onError={() => setSubmitted(true)}
      onSubmit={handleSubmit}
    />
  );
}
