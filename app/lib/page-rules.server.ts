import * as yup from "yup";
import { withRules, type InputWithRules } from "../../server/modules/shared/input-rules.shared";

/**
 * The pages' own rules, which the API does not have (docs/decisions/2026-11-25-one-schema-per-input.md):
 * each is a small schema for the fields a page adds or requires, sent with the input to the
 * operation (withRules), which checks it with its own schema in the same pass. The operation
 * never knows which page, if any, asked.
 */

/** A new password typed twice: `confirmPassword` repeats `field`; checked here, never stored. */
export function typedTwice(
  input: Record<string, string>,
  field: "password" | "newPassword",
  messages: { missing: string; mismatch: string },
): InputWithRules {
  return withRules(
    input,
    yup.object({
      confirmPassword: yup
        .string()
        .required(messages.missing)
        .oneOf([yup.ref(field)], messages.mismatch),
    }),
  );
}

/**
 * Fields the page requires where the operation does not (the checkout's mobile number, Shipped's
 * courier and tracking number), each with its message; blank is missing. `fields` holds the
 * form's values as posted.
 */
export function requiredOnPage(
  input: unknown,
  fields: Record<string, string>,
  messages: Record<string, string>,
): InputWithRules {
  const rules = yup.object(
    Object.fromEntries(
      Object.entries(messages).map(([field, message]) => [field, yup.string().trim().required(message)]),
    ),
  );
  return withRules(input, rules, fields);
}
