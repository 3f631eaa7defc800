/**
 * The errors a service may throw, and the one map from an error to an HTTP status, used by both
 * adapters: the API turns it into its envelope, the pages into a form's answer or the error
 * screen. Their messages are written for shoppers and administrators, so an adapter may show them
 * as they are. Pure code: the pages' browser bundle may use it (a `*.shared.ts` file).
 */
export type FieldError = { field: string; message: string };

export class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that breaks a rule; `errors` says which field and why. */
export class InvalidInputError extends DomainError {
  constructor(readonly errors: FieldError[]) {
    super(errors[0]?.message ?? "Invalid input");
  }
  /** The first message of each field, as the pages show them beside the inputs. */
  get fieldErrors(): Record<string, string> {
    const byField: Record<string, string> = {};
    for (const { field, message } of this.errors) byField[field] ??= message;
    return byField;
  }
}

/**
 * Input larger than the store accepts (e.g. a photo over 10 MB): a 413, with the field it
 * concerns, so that a form shows it beside that input.
 */
export class TooLargeError extends InvalidInputError {}

/** A body of a type the call does not take (e.g. a photo not sent as multipart/form-data): a 415. */
export class UnsupportedMediaTypeError extends DomainError {}

/** A rule of the store refuses the request (e.g. demoting the last admin). */
export class RuleViolationError extends DomainError {}

export class NotFoundError extends DomainError {}

/** The request clashes with the current state (email taken, not enough stock). */
export class ConflictError extends DomainError {}

/**
 * A conflict a client tells apart by a stable `code` beside the message (the API's envelope
 * carries it): a cash-on-delivery rule's refusal, say (docs/api.md, "Orders").
 */
export class CodedConflictError extends ConflictError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {}

/**
 * An outside service the request needed refused it or did not answer (a courier's API): a 502,
 * its message the service's words or what the store knows of the failure.
 */
export class OutsideServiceError extends DomainError {}

/** What a caller who is not signed in is told (docs/api.md: no, bad, expired or revoked token). */
export const SIGN_IN_NEEDED = "Not authorized, please log in";

/**
 * The caller's own account is gone: deleted by an admin after their token or session was checked
 * and before their call reached the account's row. Their sign-in stands for nobody now, which is
 * a revoked sign-in (401), not a missing resource (a 404 the call's contract does not list; found
 * by tests/integration/races.test.ts under the API's contract check).
 */
export class CallerAccountGoneError extends UnauthorizedError {
  constructor() {
    super(SIGN_IN_NEEDED);
  }
}

export class ForbiddenError extends DomainError {}

export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export const SERVICE_UNAVAILABLE = "Service temporarily unavailable";
/** How long a client is asked to wait while the database does not answer. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export class ServiceUnavailableError extends DomainError {
  constructor() {
    super(SERVICE_UNAVAILABLE);
  }
}

/**
 * The store cannot take this request now, though it is well formed (the photo lane's queue is
 * full): a 503 with Retry-After, like the database's, said beside the field it concerns on a page.
 */
export class BusyError extends ServiceUnavailableError {
  constructor(readonly errors: FieldError[]) {
    super();
    this.message = errors[0]?.message ?? SERVICE_UNAVAILABLE;
  }
}

/** The HTTP status of an error: a domain error's, 503 when the database does not answer, else 500. */
export function statusOf(error: unknown): number {
  if (error instanceof TooLargeError) return 413;
  if (error instanceof UnsupportedMediaTypeError) return 415;
  if (error instanceof InvalidInputError || error instanceof RuleViolationError) return 400;
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof RateLimitedError) return 429;
  if (error instanceof OutsideServiceError) return 502;
  if (error instanceof ServiceUnavailableError || isDatabaseUnavailable(error)) return 503;
  if (error instanceof DomainError) return 400;
  return 500;
}

/** Seconds a client should wait before asking again (429 and 503), if the error says. */
export function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof RateLimitedError) return error.retryAfterSeconds;
  return statusOf(error) === 503 ? SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS : undefined;
}

/** True when an error means the database cannot be reached (down, restarting, pool exhausted). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    // Connection exceptions (08…), shutdown and crash recovery (57P…), too many connections.
    if (/^(08|57P)/.test(code) || code === "53300") return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"].includes(code)) return true;
  }
  if (
    error.name === "KnexTimeoutError" ||
    // "…is not queryable": a transaction's ROLLBACK on a connection PostgreSQL has just cut.
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      error.message,
    )
  ) {
    return true;
  }
  // Objection wraps driver errors (DBError) and keeps the driver's error, with its code, as
  // nativeError: "the database system is shutting down" (57P03) arrived that way and was a 500
  // (found by the load test's database restart). The cause chain is followed too, a few links deep.
  if (depth >= 3) return false;
  const wrapped = error as { nativeError?: unknown; cause?: unknown };
  return isDatabaseUnavailable(wrapped.nativeError, depth + 1) || isDatabaseUnavailable(wrapped.cause, depth + 1);
}
