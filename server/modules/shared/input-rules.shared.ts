import type { AnyObjectSchema } from "yup";

/**
 * An input carrying its adapter's own rules (docs/decisions/2026-11-25-one-schema-per-input.md).
 * An operation validates its input with its one schema and knows nothing of who calls it; a page
 * that asks more than the operation does (a password typed twice, a field the page requires and
 * the API does not) sends its input wrapped with its own small schema for those fields. The
 * operation's validation (validateInput) checks both in the same pass, so the page shows every
 * problem at once, and nothing is done unless both pass. Pure: route modules build these.
 */
export class InputWithRules {
  constructor(
    /** What the operation receives, as the adapter translated it. */
    readonly input: unknown,
    /** The adapter's rules; their problems come first, so a field's own page message wins. */
    readonly rules: AnyObjectSchema,
    /** What the rules read: the form's fields as posted, when the adapter translated some. */
    readonly ruleValues: unknown = input,
  ) {}
}

export function withRules(input: unknown, rules: AnyObjectSchema, ruleValues?: unknown): InputWithRules {
  return new InputWithRules(input, rules, ruleValues ?? input);
}
