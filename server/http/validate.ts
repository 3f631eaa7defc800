import * as yup from "yup";
import { InvalidInputError } from "../domain-errors";

/**
 * Validates input against a schema, the same way for the pages and the API: every problem at
 * once, unknown fields dropped, and a failure as InvalidInputError naming each field.
 */
export function validateInput<S extends yup.AnyObjectSchema>(schema: S, input: unknown): yup.InferType<S> {
  try {
    return schema.validateSync(input ?? {}, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      const inner = error.inner.length > 0 ? error.inner : [error];
      throw new InvalidInputError(
        inner.map((problem) => ({ field: problem.path ?? "input", message: problem.message })),
      );
    }
    throw error;
  }
}
