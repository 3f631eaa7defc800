/**
 * The errors a service may throw. Each adapter maps them once: the API to its envelope and
 * status code, the pages to a form error or the error screen. Their messages are written for
 * shoppers and administrators, so an adapter may show them as they are.
 */
export type FieldError = { field: string; message: string };

/**
 * `kind` names the error across bundles: the pages (a separate build) recognise a domain error
 * by it, since `instanceof` does not hold between two copies of a class.
 */
export type DomainErrorKind =
  | "InvalidInput"
  | "RuleViolation"
  | "NotFound"
  | "Conflict"
  | "Unauthorized"
  | "Forbidden"
  | "RateLimited"
  | "ServiceUnavailable"
  | "Domain";

export class DomainError extends Error {
  readonly kind: DomainErrorKind = "Domain";
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that breaks a rule; `errors` says which field and why. */
export class InvalidInputError extends DomainError {
  readonly kind = "InvalidInput" as const;
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

/** A rule of the store refuses the request (e.g. demoting the last admin). */
export class RuleViolationError extends DomainError {
  readonly kind = "RuleViolation" as const;
}

export class NotFoundError extends DomainError {
  readonly kind = "NotFound" as const;
}

/** The request clashes with the current state (email taken, not enough stock). */
export class ConflictError extends DomainError {
  readonly kind = "Conflict" as const;
}

export class UnauthorizedError extends DomainError {
  readonly kind = "Unauthorized" as const;
}

export class ForbiddenError extends DomainError {
  readonly kind = "Forbidden" as const;
}

export class RateLimitedError extends DomainError {
  readonly kind = "RateLimited" as const;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class ServiceUnavailableError extends DomainError {
  readonly kind = "ServiceUnavailable" as const;
  constructor() {
    super("Service temporarily unavailable");
  }
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
  // (tests/load, scenario B). The cause chain is followed too, a few links deep.
  if (depth >= 3) return false;
  const wrapped = error as { nativeError?: unknown; cause?: unknown };
  return isDatabaseUnavailable(wrapped.nativeError, depth + 1) || isDatabaseUnavailable(wrapped.cause, depth + 1);
}
