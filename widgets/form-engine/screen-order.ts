import type { RJSFSchema, UiSchema } from '@rjsf/utils';

/**
 * The dotted path of every field in the order a person meets it on screen: `ui:order` first
 * (RJSF's "*" and unknown names need no handling: anything it leaves out follows in schema order),
 * nested objects in place, their own path before their parts. Pure; used to sort errors so
 * "the first error" is the first invalid field on screen (ADR 0006).
 */
export function screenOrder(schema: RJSFSchema, uiSchema: UiSchema = {}, prefix = ''): string[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const order = Array.isArray(uiSchema['ui:order']) ? uiSchema['ui:order'].filter((name): name is string => typeof name === 'string') : [];
  const ordered = [...order.filter((name) => names.includes(name)), ...names.filter((name) => !order.includes(name))];

  return ordered.flatMap((name) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const child = properties[name];
    const childUi: unknown = uiSchema[name];
    return isRecord(child) && child.type === 'object' ? [path, ...screenOrder(child, isRecord(childUi) ? childUi : {}, path)] : [path];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
