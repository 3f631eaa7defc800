import type { FieldError } from "../modules/shared/errors.shared";

/** The API's envelope (docs/api.md): every body says `success`. */
export type SuccessEnvelope<T> = {
  success: true;
  message: string;
  data: T;
  pagination?: unknown;
  meta?: unknown;
};

export type ErrorEnvelope = {
  success: false;
  message: string;
  errors?: FieldError[];
};

export function ok<T>(
  data: T,
  message = "OK",
  extra: { pagination?: unknown; meta?: unknown } = {},
): SuccessEnvelope<T> {
  return { success: true, message, data, ...extra };
}

export function failure(message: string, errors?: FieldError[]): ErrorEnvelope {
  return errors && errors.length > 0 ? { success: false, message, errors } : { success: false, message };
}
