import type { ReactNode } from "react";
import { Link, data, useNavigation } from "react-router";
import { PASSWORD_MIN_LENGTH } from "../../server/modules/accounts/accounts-values.shared";
import {
  BusyError,
  DomainError,
  InvalidInputError,
  retryAfterOf,
  statusOf,
} from "../../server/modules/shared/errors.shared";

export type FieldErrors = Record<string, string>;

/** What a failed form action answers: messages beside fields, one for the form, the input back. */
export type FormFailure = {
  fieldErrors: FieldErrors;
  formError?: string;
  values: Record<string, string>;
};

/** The posted fields as plain strings (files are not accepted by any form of the store). */
export function formValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === "string") values[key] = value;
  return values;
}

/**
 * Turns a service's refusal into the form's answer, with the status statusOf gives it (400, 401,
 * 409, 429…), keeping what the user typed (but never a password). `fieldFor` puts the message
 * of a refusal with that status beside one input (e.g. 409 "email taken" beside the email).
 * The store too busy for it now (BusyError: 503, with Retry-After) is said beside its input too,
 * the form kept, so that it can be sent again. Anything else is not the user's fault and is
 * rethrown to the error screen.
 */
export function formFailure(
  error: unknown,
  values: Record<string, string>,
  options: { fieldFor?: Partial<Record<number, string>>; fallback?: string } = {},
) {
  const status = statusOf(error);
  if (!(error instanceof DomainError) || (status >= 500 && !(error instanceof BusyError))) throw error;
  const keptValues = Object.fromEntries(Object.entries(values).filter(([key]) => !/password/i.test(key)));
  const fieldErrors: FieldErrors = {};
  let formError: string | undefined;
  if (error instanceof InvalidInputError || error instanceof BusyError) {
    for (const { field, message } of error.errors) {
      // "address.city" from the schema is the "city" input of the form.
      const name = field.includes(".") ? field.split(".").pop()! : field;
      fieldErrors[name] ??= message;
    }
  } else {
    const field = options.fieldFor?.[status];
    if (field) fieldErrors[field] = error.message;
    else formError = error.message || options.fallback || "Something went wrong";
  }
  const retryAfter = retryAfterOf(error);
  const headers: HeadersInit = retryAfter ? { "Retry-After": String(retryAfter) } : {};
  return data<FormFailure>({ fieldErrors, formError, values: keptValues }, { status, headers });
}

/**
 * React Router sends an action's headers only when the route asks for them: a form page that can
 * be rate limited exports this as its `headers`, so a 429 carries Retry-After like the API's.
 */
export function formHeaders({ actionHeaders }: { actionHeaders: Headers }): Headers {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

/**
 * For a POST answered by a redirect (cart buttons, order status): a service's refusal becomes
 * a message on the next page, the state unchanged; anything else goes to the error screen.
 */
export function flashRefusal(
  session: { setFlash(flash: { tone: "error"; message: string }): void },
  error: unknown,
  fallback: string,
) {
  if (!(error instanceof DomainError) || statusOf(error) >= 500) throw error;
  session.setFlash({ tone: "error", message: error.message || fallback });
}

export function Field({
  name,
  label,
  type = "text",
  error,
  defaultValue,
  autoComplete,
  required,
  hint,
  children,
  ...rest
}: {
  name: string;
  label: string;
  type?: string;
  error?: string;
  defaultValue?: string;
  autoComplete?: string;
  required?: boolean;
  hint?: string;
  children?: ReactNode;
  minLength?: number;
  maxLength?: number;
  min?: number | string;
  max?: number | string;
  step?: string;
  inputMode?: "numeric" | "decimal" | "email" | "tel" | "text";
}) {
  const id = `field-${name}`;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children ?? (
        <input
          id={id}
          name={name}
          type={type}
          defaultValue={defaultValue}
          autoComplete={autoComplete}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...rest}
        />
      )}
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A choice among named values as a plain select (it works before and without JavaScript): an
 * empty first option that asks for the choice, so nothing is chosen for the person, and the
 * field's error and hint wired to it as for a text field.
 */
export function SelectField({
  name,
  label,
  error,
  hint,
  defaultValue,
  placeholder,
  options,
  required,
}: {
  name: string;
  label: string;
  error?: string;
  hint?: string;
  defaultValue: string;
  placeholder: string;
  options: readonly string[];
  required?: boolean;
}) {
  const id = `field-${name}`;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <Field name={name} label={label} error={error} hint={hint}>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </Field>
  );
}

/**
 * A field no person sees or fills; a bot that fills it is refused. Its label is empty on purpose
 * and the whole field is hidden from assistive technology (docs/product.md, "Forms").
 */
export function Honeypot() {
  return (
    <div className="honeypot" aria-hidden="true">
      {/* eslint-disable-next-line jsx-a11y/label-has-associated-control -- an empty label: no person is meant to fill this field */}
      <label htmlFor="field-website"></label>
      <input id="field-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function isHoneypotFilled(values: Record<string, string>): boolean {
  return Boolean(values.website);
}

export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <div className="form-error" role="alert">
      {message}
    </div>
  );
}

/** A form's submit button (its label changes while the post is on its way) and a Cancel link. */
export function FormActions({
  label,
  pendingLabel,
  cancelTo,
}: {
  label: string;
  pendingLabel: string;
  cancelTo: string;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  return (
    <div className="actions">
      <button type="submit" className="button" disabled={submitting}>
        {submitting ? pendingLabel : label}
      </button>
      <Link className="button button--ghost" to={cancelTo}>
        Cancel
      </Link>
    </div>
  );
}

/**
 * A new password and, unless `confirmLabel` is null, its confirmation: sign-up, the profile's
 * password change, the reset link's page and an admin's new account ask for it alike (the
 * sign-up rule, docs/product.md, "Accounts"; the server checks it again).
 */
export function NewPasswordFields({
  name = "password",
  label,
  confirmLabel,
  errors,
}: {
  name?: string;
  label: string;
  confirmLabel: string | null;
  errors: Partial<Record<string, string>>;
}) {
  return (
    <>
      <Field
        name={name}
        label={label}
        type="password"
        autoComplete="new-password"
        error={errors[name]}
        required
        minLength={PASSWORD_MIN_LENGTH}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters`}
      />
      {confirmLabel ? (
        <Field
          name="confirmPassword"
          label={confirmLabel}
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword}
          required
        />
      ) : null}
    </>
  );
}
