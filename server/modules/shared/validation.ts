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
