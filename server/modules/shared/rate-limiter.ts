import type { Database } from "../../db/database";
import { addressKey } from "./client-address";
import { RateLimitedError } from "./errors.shared";

/**
 * What a rule counts by, and the subject each kind takes: a client's address, an account (a user's
 * id or an email), or both together. A client's address is always counted by addressKey (its IPv6
 * /64, or its IPv4 address however written), here and nowhere else, so no rule can count a raw
 * address by mistake (docs/decisions/2026-11-29-rate-limit-addresses.md).
 */
export type RateLimitSubjects = {
  address: { address: string };
  account: { account: string };
  "account and address": { account: string; address: string };
};
export type RateLimitPer = keyof RateLimitSubjects;

export type RateLimitRule<P extends RateLimitPer = RateLimitPer> = {
  name: string;
  limit: number;
  windowSeconds: number;
  per: P;
};

/**
 * Fixed-window rate limits counted in PostgreSQL (one statement per hit), so every app server
 * sees the same count. RATE_LIMITS=off turns them off for load tests.
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly enabled: boolean,
  ) {}

  /** Counts a hit; throws RateLimitedError with the message once the limit is passed. */
  async hit<P extends RateLimitPer>(
    rule: RateLimitRule<P>,
    subject: RateLimitSubjects[P],
    message: string,
  ): Promise<void> {
    if (!this.enabled) return;
    const { hits, retryAfter } = await this.count(rule, subject);
    if (hits > rule.limit) throw new RateLimitedError(message, retryAfter);
  }

  /** Counts a hit and answers whether it is within the limit, for a rule that refuses silently. */
  async allow<P extends RateLimitPer>(rule: RateLimitRule<P>, subject: RateLimitSubjects[P]): Promise<boolean> {
    if (!this.enabled) return true;
    return (await this.count(rule, subject)).hits <= rule.limit;
  }

  /**
   * Throws RateLimitedError when the subject has used up the rule's limit in the current window,
   * counting nothing: for rules that count only failures (`allow` counts them when they happen).
   */
  async refuseWhenSpent<P extends RateLimitPer>(
    rule: RateLimitRule<P>,
    subject: RateLimitSubjects[P],
    message: string,
  ): Promise<void> {
    if (!this.enabled) return;
    const { rows } = await this.db.raw<{ rows: { retryAfter: number }[] }>(
      `SELECT CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => ?) - now())))::int AS "retryAfter"
         FROM rate_limits
        WHERE key = ? AND hits >= ? AND window_start > now() - make_interval(secs => ?)`,
      [rule.windowSeconds, keyOf(rule, subject), rule.limit, rule.windowSeconds],
    );
    const row = rows[0];
    if (row) throw new RateLimitedError(message, Math.max(1, row.retryAfter));
  }

  async reset<P extends RateLimitPer>(rule: RateLimitRule<P>, subject: RateLimitSubjects[P]): Promise<void> {
    if (!this.enabled) return;
    await this.db("rate_limits").where("key", keyOf(rule, subject)).delete();
  }

  private async count(
    rule: RateLimitRule,
    subject: RateLimitSubjects[RateLimitPer],
  ): Promise<{ hits: number; retryAfter: number }> {
    const { rows } = await this.db.raw<{ rows: { hits: number; retryAfter: number }[] }>(
      `INSERT INTO rate_limits (key, window_start, hits) VALUES (?, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => ?) THEN 1 ELSE rate_limits.hits + 1 END,
         window_start = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => ?) THEN now() ELSE rate_limits.window_start END
       RETURNING hits, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => ?) - now())))::int AS "retryAfter"`,
      [keyOf(rule, subject), rule.windowSeconds, rule.windowSeconds, rule.windowSeconds],
    );
    const row = rows[0]!;
    return { hits: row.hits, retryAfter: Math.max(1, row.retryAfter) };
  }
}

/** The row a hit counts in: the rule's name, then the account (any case) and the address's key. */
function keyOf(rule: RateLimitRule, subject: RateLimitSubjects[RateLimitPer]): string {
  const parts: string[] = [];
  if ("account" in subject) parts.push(subject.account.toLowerCase());
  if ("address" in subject) parts.push(addressKey(subject.address));
  return `${rule.name}:${parts.join(" ")}`.slice(0, 300);
}
