/**
 * The subset of JSON Schema the translator emits. Keeping to a small, known subset lets one
 * eval-free validator (validate-form.ts) check it in the browser and in the gateway.
 */
import type { RuleName } from '../validators';

export type RuleOptionValue = string | number | boolean | null;

/** A site-varying check, dispatched by name to schemas/validators (custom keyword `x-rule`). */
export interface FieldRule {
  name: RuleName;
  options?: Readonly<Record<string, RuleOptionValue>>;
}

export interface JsonSchema {
  type?: 'object' | 'string' | 'boolean' | 'array';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  enum?: string[];
  const?: string | boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: JsonSchema;
  uniqueItems?: boolean;
  maxItems?: number;
  default?: string | boolean;
  readOnly?: boolean;
  'x-rule'?: FieldRule;
}

export type UiSchema = Record<string, unknown>;

export interface FormSchema {
  schema: JsonSchema;
  uiSchema: UiSchema;
}

/** SPEC §5 "Default max length 100". */
export const DEFAULT_MAX_LENGTH = 100;
