/**
 * Response shapes, each written once: a shape gives the JSON Schema of a public object (for the
 * OpenAPI document, server/http/openapi.ts) and its TypeScript type (`ShapeOf<typeof shape>`),
 * which the object's mapper (e.g. Product.toPublic) must return. So the type, the mapper and the
 * documented schema cannot drift apart.
 */
export type JsonSchema = Record<string, unknown>;

export type Shape<T> = {
  readonly schema: JsonSchema;
  /** Never set: carries the TypeScript type of the shape. */
  readonly type?: T;
  /** A property of an object that may be left out (`optional`); object() requires every other. */
  readonly optional?: true;
};

export type ShapeOf<S> = S extends Shape<infer T> ? T : never;

function shape<T>(schema: JsonSchema): Shape<T> {
  return { schema };
}

export const text = (schema: JsonSchema = {}) => shape<string>({ type: "string", ...schema });
export const uuid = (schema: JsonSchema = {}) => text({ format: "uuid", ...schema });
export const email = () => text({ format: "email" });
export const dateTime = (schema: JsonSchema = {}) => text({ format: "date-time", ...schema });
export const number = (schema: JsonSchema = {}) => shape<number>({ type: "number", ...schema });
export const integer = (schema: JsonSchema = {}) => shape<number>({ type: "integer", ...schema });
export const boolean = () => shape<boolean>({ type: "boolean" });
/** Always this one value (e.g. the envelope's `success: true`). */
export const constant = <const V extends string | number | boolean>(value: V) => shape<V>({ const: value });
/** No value: `null` (e.g. the `data` of a call that answers none). */
export const nothing = () => shape<null>({ type: "null" });

export function oneOf<const V extends readonly string[]>(values: V, schema: JsonSchema = {}): Shape<V[number]> {
  return shape({ type: "string", enum: [...values], ...schema });
}

/** The value or null (e.g. an order's product that was deleted since). */
export function nullable<T>(inner: Shape<T>): Shape<T | null> {
  const { type, enum: values, ...rest } = inner.schema;
  if (typeof type === "string") {
    return shape({ ...rest, type: [type, "null"], ...(Array.isArray(values) ? { enum: [...values, null] } : {}) });
  }
  return shape({ anyOf: [inner.schema, { type: "null" }] });
}

export function arrayOf<T>(item: Shape<T>, schema: JsonSchema = {}): Shape<T[]> {
  return shape({ type: "array", items: item.schema, ...schema });
}

/** A property that may be left out of its object (e.g. the envelope's `errors`). */
export function optional<T>(inner: Shape<T>): Shape<T> & { readonly optional: true } {
  return { schema: inner.schema, optional: true };
}

type OptionalKeys<P> = { [K in keyof P]: P[K] extends { readonly optional: true } ? K : never }[keyof P];
type ObjectOf<P> = {
  [K in keyof P as K extends OptionalKeys<P> ? never : K]: ShapeOf<P[K]>;
} & { [K in OptionalKeys<P>]?: ShapeOf<P[K]> };

/**
 * Every property is always present (null where a shape says so), but those marked `optional`, and
 * there is no other: a field a mapper adds without its shape breaks the documented contract
 * (tests/support/api-contract.ts finds it in the API's answers).
 */
export function object<P extends Record<string, Shape<unknown>>>(
  properties: P,
  schema: JsonSchema = {},
): Shape<{ [K in keyof ObjectOf<P>]: ObjectOf<P>[K] }> {
  return shape({
    type: "object",
    required: Object.entries(properties)
      .filter(([, property]) => !property.optional)
      .map(([name]) => name),
    properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, property.schema])),
    additionalProperties: false,
    ...schema,
  });
}

/** The same shape, with a description for the OpenAPI document. */
export function described<T>(inner: Shape<T>, description: string): Shape<T> {
  return shape({ ...inner.schema, description });
}
