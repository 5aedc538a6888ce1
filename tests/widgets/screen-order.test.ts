import { describe, expect, it } from 'vitest';
import { screenOrder } from '../../widgets/form-engine/screen-order';

describe('screenOrder', () => {
  const schema = {
    type: 'object' as const,
    properties: {
      first_name: { type: 'string' as const },
      address: { type: 'object' as const, properties: { street: { type: 'string' as const }, zipcode: { type: 'string' as const } } },
      email: { type: 'string' as const },
    },
  };

  it('follows ui:order at every level, each object before its parts', () => {
    const uiSchema = { 'ui:order': ['email', 'address', 'first_name'], address: { 'ui:order': ['zipcode', 'street'] } };
    expect(screenOrder(schema, uiSchema)).toEqual(['email', 'address', 'address.zipcode', 'address.street', 'first_name']);
  });

  it('puts fields ui:order leaves out (or a "*") after the ordered ones, in schema order, and skips unknown names', () => {
    expect(screenOrder(schema, { 'ui:order': ['email', '*', 'nickname'] })).toEqual(['email', 'first_name', 'address', 'address.street', 'address.zipcode']);
    expect(screenOrder(schema)).toEqual(['first_name', 'address', 'address.street', 'address.zipcode', 'email']);
  });
});
