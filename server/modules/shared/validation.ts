import * as yup from "yup";
import { InvalidInputError } from "./errors.shared";

/**
 * Validates input against a schema, the same way for the pages and the API: every problem at
 * once, unknown fields dropped, and a failure as InvalidInputError naming each field.
 */
export function validateInput<S extends yup.AnyObjectSchema>(schema: S, input: unknown): yup.InferType<S> {
  let fields: yup.InferType<S>;
  try {
    fields = schema.validateSync(input ?? {}, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      const inner = error.inner.length > 0 ? error.inner : [error];
      throw new InvalidInputError(
        inner.map((problem) => ({ field: problem.path ?? "input", message: problem.message })),
      );
    }
    // A value of the wrong shape (an object where text belongs) can make one of yup's own
    // transforms throw, e.g. trim() on an object. That is bad input, never a server error.
    if (error instanceof TypeError) {
      throw new InvalidInputError([{ field: "input", message: "Invalid input: fields must be text or numbers" }]);
    }
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
