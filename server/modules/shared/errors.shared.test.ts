import { DBError } from "objection";
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
  RuleViolationError,
  ServiceUnavailableError,
  TooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  isDatabaseUnavailable,
  retryAfterOf,
  statusOf,
} from "./errors.shared";

/** Objection's wrapper as it really is built (its typings show only a message). */
const wrap = (nativeError: Error): Error =>
  new (DBError as unknown as new (args: { nativeError: Error; client: string }) => Error)({
    nativeError,
    client: "postgres",
  });

function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe("isDatabaseUnavailable", () => {
  it("knows the driver's errors for a database that is down, stopping or starting", () => {
    expect(isDatabaseUnavailable(pgError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("terminating connection due to administrator command", "57P01"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("the database system is starting up", "57P03"))).toBe(true);
    expect(isDatabaseUnavailable(pgError("Connection terminated unexpectedly"))).toBe(true);
  });

  // Seen under load (the load test's database restart) as 500s while PostgreSQL restarted.
  it("sees through Objection's DBError, which keeps the driver's code on nativeError", () => {
    const wrapped = wrap(pgError("the database system is shutting down", "57P03"));
    expect(wrapped.message).toBe("the database system is shutting down");
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error("failed", { cause: pgError("x", "08006") }))).toBe(true);
  });

  it("knows a transaction's ROLLBACK or COMMIT on a connection PostgreSQL has cut", () => {
    expect(
      isDatabaseUnavailable(new Error("ROLLBACK - Client has encountered a connection error and is not queryable")),
    ).toBe(true);
  });

  it("leaves other errors alone", () => {
    expect(isDatabaseUnavailable(pgError('relation "x" does not exist', "42P01"))).toBe(false);
    expect(isDatabaseUnavailable(wrap(pgError("duplicate key", "23505")))).toBe(false);
    expect(isDatabaseUnavailable(new ConflictError("Not enough stock"))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});

describe("statusOf", () => {
  it("gives each refusal of the domain its status, the database being away 503, anything else 500", () => {
    expect(statusOf(new InvalidInputError([{ field: "name", message: "Name is required" }]))).toBe(400);
    expect(statusOf(new RuleViolationError("Your cart is empty"))).toBe(400);
    expect(statusOf(new UnauthorizedError("Incorrect email or password"))).toBe(401);
    expect(statusOf(new ForbiddenError("Not authorized as an admin"))).toBe(403);
    expect(statusOf(new NotFoundError("Product not found"))).toBe(404);
    expect(statusOf(new ConflictError("Not enough stock available"))).toBe(409);
    expect(statusOf(new RateLimitedError("Too many", 30))).toBe(429);
    expect(statusOf(new TooLargeError([{ field: "image", message: "The photo must be at most 10 MB" }]))).toBe(413);
    expect(statusOf(new UnsupportedMediaTypeError("Send the photo as multipart/form-data"))).toBe(415);
    expect(statusOf(new ServiceUnavailableError())).toBe(503);
    expect(statusOf(wrap(pgError("the database system is shutting down", "57P03")))).toBe(503);
    expect(statusOf(new DomainError("Some other refusal"))).toBe(400);
    expect(statusOf(new TypeError("x is undefined"))).toBe(500);
    expect(statusOf("a string")).toBe(500);
  });

  it("asks clients to wait as long as a limit says, or a few seconds while the database is away", () => {
    expect(retryAfterOf(new RateLimitedError("Too many", 42))).toBe(42);
    expect(retryAfterOf(new ServiceUnavailableError())).toBe(5);
    expect(retryAfterOf(new NotFoundError("Product not found"))).toBeUndefined();
  });
});
