import type { Database } from "../../db/database";
import { RateLimitedError } from "./errors.shared";

export type RateLimitRule = { name: string; limit: number; windowSeconds: number };

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
  async hit(rule: RateLimitRule, subject: string, message: string): Promise<void> {
    if (!this.enabled) return;
    const key = `${rule.name}:${subject.toLowerCase()}`.slice(0, 300);
    const { rows } = await this.db.raw<{ rows: { hits: number; retryAfter: number }[] }>(
      `INSERT INTO rate_limits (key, window_start, hits) VALUES (?, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => ?) THEN 1 ELSE rate_limits.hits + 1 END,
         window_start = CASE WHEN rate_limits.window_start <= now() - make_interval(secs => ?) THEN now() ELSE rate_limits.window_start END
       RETURNING hits, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => ?) - now())))::int AS "retryAfter"`,
      [key, rule.windowSeconds, rule.windowSeconds, rule.windowSeconds],
    );
    const row = rows[0]!;
    if (row.hits > rule.limit) throw new RateLimitedError(message, Math.max(1, row.retryAfter));
  }

  async reset(rule: RateLimitRule, subject: string): Promise<void> {
    if (!this.enabled) return;
    await this.db("rate_limits").where("key", `${rule.name}:${subject.toLowerCase()}`.slice(0, 300)).delete();
  }
}
