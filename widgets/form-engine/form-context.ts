import type { FocusEvent, HTMLAttributes } from 'react';
import type { Registry } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';
import { findText, textLookup, type FormTexts, type TextLookup } from './form-texts';

/** An offer category as the offers service lists it (SPEC §7 offer categories). */
export interface OfferCategory {
  id: string;
  name: string;
}

/**
 * What SiteForm hands every widget through RJSF's `formContext`. Data only: RJSF compares the
 * registry with a deep equality that counts every function as equal, so a lookup function here
 * would never re-render the form when the texts arrive.
 */
export interface SiteFormContext {
  texts: FormTexts;
  /** BCP 47 tag of the page language (`pt-BR`), for names from `Intl`. */
  language: string;
  offerCategories: readonly OfferCategory[];
}

export function siteFormContext(registry: Registry): SiteFormContext {
  const context = (registry.formContext ?? {}) as Partial<SiteFormContext>;
  return { texts: context.texts ?? {}, language: context.language ?? 'en', offerCategories: context.offerCategories ?? [] };
}

/** A field's `ui:options` (and `ui:` keys) as RJSF hands them to widgets and templates. */
type UiOptions = { readonly [option: string]: unknown };

export function textOf(registry: Registry): TextLookup {
  const { texts, language } = siteFormContext(registry);
  return textLookup(texts, language);
}

/** The field's label from content (`ui:options.labelKey`), else RJSF's own label. */
export function labelOf(registry: Registry, options: UiOptions, fallback: string): string {
  return typeof options.labelKey === 'string' ? textOf(registry)(options.labelKey) : fallback;
}

/** The optional tooltip of a label: content under `<labelKey>.tooltip`, only when content has one. */
export function tooltipOf(registry: Registry, options: UiOptions): string | undefined {
  return typeof options.labelKey === 'string' ? findText(siteFormContext(registry).texts, `${options.labelKey}.tooltip`) : undefined;
}

type InputMode = NonNullable<HTMLAttributes<HTMLInputElement>['inputMode']>;
const INPUT_MODES: ReadonlySet<string> = new Set<InputMode>(['none', 'text', 'tel', 'url', 'email', 'numeric', 'decimal', 'search']);

/** The on-screen keyboard a field asks for (`ui:options.inputMode`, SPEC §5 "numeric" masks). */
export function inputModeOf(options: UiOptions, fallback?: InputMode): InputMode | undefined {
  const mode = options.inputMode;
  return typeof mode === 'string' && INPUT_MODES.has(mode) ? (mode as InputMode) : fallback;
}

/**
 * `dir="ltr"` for a number-like field (`ui:options.leftToRight`: phone, national id, postal code,
 * bin, passcode), so its digits keep their order inside a right-to-left page (ADR 0013); the
 * stylesheet aligns such an input to the page's reading side. Undefined (the page's direction) otherwise.
 */
export function directionOf(options: UiOptions): 'ltr' | undefined {
  return options.leftToRight === true ? 'ltr' : undefined;
}

/**
 * ARIA of a field's input: described by its expected-format hint when it has one (`hintId`), and
 * invalid and described by its message while one is shown (the FieldErrorTemplate renders it under
 * `<id>__error`; SiteForm only passes errors a person may see).
 */
export function inputAria(id: string, rawErrors: readonly string[] | undefined, hintId?: string): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  const invalid = rawErrors !== undefined && rawErrors.length > 0;
  const describedBy = [hintId, invalid ? errorId(id) : undefined].filter((part) => part !== undefined).join(' ');
  return { ...(invalid ? { 'aria-invalid': true } : {}), ...(describedBy === '' ? {} : { 'aria-describedby': describedBy }) };
}

/** True when focus moves to something outside the element the handler sits on: a group of inputs is left only then. */
export function isLeavingGroup(event: FocusEvent<HTMLElement>): boolean {
  const next = event.relatedTarget;
  return !(next instanceof Node && event.currentTarget.contains(next));
}
