/**
 * The TypeScript type of an `as const` JSON Schema of the API contract, so the app's endpoint types come
 * from the very schemas the gateway validates with and the OpenAPI document publishes: one contract for
 * the browser and the server (docs/decisions/0023-format-lint-and-the-api-contract.md). A schema change
 * changes, or breaks the compile of, the app that reads it.
 *
 * Only the subset the contract uses is mapped: `const`, `enum`, `oneOf`/`anyOf`, `type` (one name, or
 * a list of names for a nullable value), `properties` with `required` (other members optional), `items`
 * and `additionalProperties`. Other keywords (`pattern`, `maxLength`, `format`, `propertyNames`…) bound
 * values without changing their type, and are ignored.
 */
export type SchemaType<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly oneOf: readonly (infer Branch)[] }
      ? BranchType<S, Branch>
      : S extends { readonly anyOf: readonly (infer Branch)[] }
        ? BranchType<S, Branch>
        : S extends { readonly type: infer Name }
          ? TypeOfName<S, Name extends readonly (infer Each)[] ? Each : Name>
          : unknown;

/** `oneOf`/`anyOf`: each branch with the keywords beside it (`{ properties, anyOf: [{ required: ['code'] }, …] }`). */
type BranchType<S, Branch> = Branch extends unknown ? SchemaType<Omit<S, 'oneOf' | 'anyOf'> & Branch> : never;

/** Distributes over the names of a `type` list: `['string', 'null']` is `string | null`. */
type TypeOfName<S, Name> = Name extends 'string'
  ? string
  : Name extends 'integer' | 'number'
    ? number
    : Name extends 'boolean'
      ? boolean
      : Name extends 'null'
        ? null
        : Name extends 'array'
          ? ArrayType<S>
          : Name extends 'object'
            ? ObjectType<S>
            : unknown;

type ArrayType<S> = S extends { readonly items: infer Item } ? SchemaType<Item>[] : unknown[];

type ObjectType<S> = S extends { readonly properties: infer Properties }
  ? PropertiesType<Properties, S extends { readonly required: readonly (infer Key)[] } ? Key : never> &
      (S extends { readonly additionalProperties: true | object } ? Record<string, unknown> : unknown)
  : S extends { readonly additionalProperties: infer Value extends object }
    ? Record<string, SchemaType<Value>>
    : Record<string, unknown>;

/** Required members required, the others optional; flattened so editors and errors show one object. */
type PropertiesType<Properties, Required> = Flatten<
  { -readonly [Key in keyof Properties as Key extends Required ? Key : never]: SchemaType<Properties[Key]> } & {
    -readonly [Key in keyof Properties as Key extends Required ? never : Key]?: SchemaType<Properties[Key]>;
  }
>;

type Flatten<T> = { [Key in keyof T]: T[Key] } & {};
