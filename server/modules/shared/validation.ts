import * as yup from "yup";
import { InvalidInputError, type FieldError } from "./errors.shared";
import { InputWithRules } from "./input-rules.shared";

/**
 * Validates input against a schema, the same way for the pages and the API: every problem at
 * once, unknown fields dropped, and a failure as InvalidInputError naming each field. An input
 * wrapped with its adapter's own rules (input-rules.shared.ts) is checked against both, and its
 * problems are those of both.
 */
export function validateInput<S extends yup.AnyObjectSchema>(schema: S, input: unknown): yup.InferType<S> {
  if (!(input instanceof InputWithRules)) return validateOne(schema, input);
  const adapterProblems = problemsOf(input.rules, input.ruleValues);
  let fields: yup.InferType<S>;
  try {
    fields = validateOne(schema, input.input);
  } catch (error) {
    if (error instanceof InvalidInputError && adapterProblems.length > 0) {
      throw new InvalidInputError([...adapterProblems, ...error.errors]);
    }
    throw error;
  }
  if (adapterProblems.length > 0) throw new InvalidInputError(adapterProblems);
  return fields;
}

/**
 * An adapter's rules, judged on the fields as given (unknown fields kept, so that a rule may
 * compare two of them, e.g. a password and its confirmation).
 */
function problemsOf(rules: yup.AnyObjectSchema, values: unknown): FieldError[] {
  try {
    rules.validateSync(values ?? {}, { abortEarly: false });
    return [];
  } catch (error) {
    if (error instanceof yup.ValidationError) return problemsOfValidation(error);
    if (error instanceof TypeError) return [{ field: "input", message: INVALID_SHAPE }];
    throw error;
  }
}

const INVALID_SHAPE = "Invalid input: fields must be text or numbers";

function problemsOfValidation(error: yup.ValidationError): FieldError[] {
  const inner = error.inner.length > 0 ? error.inner : [error];
  return inner.map((problem) => ({ field: problem.path ?? "input", message: problem.message }));
}

function validateOne<S extends yup.AnyObjectSchema>(schema: S, input: unknown): yup.InferType<S> {
  let fields: yup.InferType<S>;
  try {
    fields = schema.validateSync(input ?? {}, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    if (error instanceof yup.ValidationError) throw new InvalidInputError(problemsOfValidation(error));
    // A value of the wrong shape (an object where text belongs) can make one of yup's own
    // transforms throw, e.g. trim() on an object. That is bad input, never a server error.
    if (error instanceof TypeError) throw new InvalidInputError([{ field: "input", message: INVALID_SHAPE }]);
    throw error;
  }
  // PostgreSQL cannot store a NUL character in text: the query failed with "invalid byte
  // sequence" and the request with a 500 (found by tests/integration/hostile-input). No field of
  // the store has a use for it, so it is bad input, named like any other.
  const withNul = fieldsWithNul(fields);
  if (withNul.length > 0) {
    throw new InvalidInputError(
      withNul.map((field) => ({ field, message: "This field contains a character that is not allowed" })),
    );
  }
  return fields;
}

function fieldsWithNul(value: unknown, path = ""): string[] {
  if (typeof value === "string") return value.includes("\u0000") ? [path || "input"] : [];
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) => fieldsWithNul(inner, path ? `${path}.${key}` : key));
  }
  return [];
}

/**
 * validateInput for a query of many optional fields of which a request gives a few (the
 * catalogue's search, sort and nine filters): only the fields given are checked by the schema,
 * and the others take what the schema makes of an empty query, worked out once. yup's checking
 * of the fields nobody gave was a tenth of the filtered catalogue's CPU, and its largest
 * allocator. The answer and the problems are validateInput's own: validation.test.ts compares the
 * two on many random queries. A schema for which they could differ is validated whole: one whose
 * fields depend on one another or on the whole (a `when`, a lazy field, a test or transform of the
 * object), whose defaults are made afresh each time (a function), or that an empty query does not
 * pass (a required field).
 */
export function validateGivenFields<S extends yup.AnyObjectSchema>(schema: S, input: unknown): yup.InferType<S> {
  const whole = wholeSchemaParts(schema);
  if (
    !whole ||
    input === null ||
    typeof input !== "object" ||
    Array.isArray(input) ||
    input instanceof InputWithRules
  ) {
    return validateInput(schema, input);
  }
  const given = whole.fields.filter((field) => Object.prototype.hasOwnProperty.call(input, field));
  const key = given.join(" ");
  let picked = whole.picked.get(key);
  if (!picked) {
    picked = schema.pick(given) as yup.AnyObjectSchema;
    // Each set of fields given is a schema of its own; a client that sends every combination
    // cannot make the store keep more than these.
    if (whole.picked.size < PICKED_SCHEMAS_KEPT) whole.picked.set(key, picked);
  }
  const fields = validateOne(picked, input) as Record<string, unknown>;
  // As yup answers: a field is there when it has a value. The defaults' lists are copied, as yup
  // gives each validation its own: an answer is its caller's to change.
  const answer: Record<string, unknown> = {};
  for (const field of whole.fields) {
    const value = field in fields ? fields[field] : whole.defaults[field];
    if (value !== undefined) answer[field] = Array.isArray(value) ? [...value] : value;
  }
  return answer as yup.InferType<S>;
}

const PICKED_SCHEMAS_KEPT = 512;

type WholeSchemaParts = {
  fields: string[];
  defaults: Record<string, unknown>;
  picked: Map<string, yup.AnyObjectSchema>;
};
const partsOfSchemas = new WeakMap<yup.AnyObjectSchema, WholeSchemaParts | null>();

function wholeSchemaParts(schema: yup.AnyObjectSchema): WholeSchemaParts | null {
  let parts = partsOfSchemas.get(schema);
  if (parts === undefined) {
    parts = fieldsStandAlone(schema) ? emptyQueryParts(schema) : null;
    partsOfSchemas.set(schema, parts);
  }
  return parts;
}

/** The schema's fields and what it makes of an empty query; null when an empty query does not pass. */
function emptyQueryParts(schema: yup.AnyObjectSchema): WholeSchemaParts | null {
  try {
    return { fields: Object.keys(schema.fields), defaults: validateOne(schema, {}), picked: new Map() };
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    return null;
  }
}

/** Whether each field's answer depends on that field alone, and its default never changes. */
function fieldsStandAlone(schema: yup.AnyObjectSchema): boolean {
  // `conditions` (a `when`) is yup's own private list, read here only to refuse such a schema;
  // were it ever gone or renamed, every schema would be validated whole.
  const hasConditions = (field: yup.Schema) => {
    const conditions = (field as unknown as { conditions?: unknown }).conditions;
    return !Array.isArray(conditions) || conditions.length > 0;
  };
  if (schema.tests.length > 0 || schema.transforms.length > 0 || hasConditions(schema)) return false;
  return Object.values(schema.fields).every(
    (field) => field instanceof yup.Schema && !hasConditions(field) && typeof field.spec.default !== "function",
  );
}
