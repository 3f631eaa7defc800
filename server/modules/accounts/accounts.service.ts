import crypto from "node:crypto";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { ApiToken } from "./api-token.model";
import { hashPassword } from "./passwords";
import { User, type PublicUser } from "./user.model";

/** How long an API token lives. */
export const API_TOKEN_TTL_DAYS = 30;

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export class AccountsService {
  constructor(private readonly db: Database) {}

  async findUserById(id: string): Promise<PublicUser | null> {
    if (!isUuid(id)) return null;
    const user = await User.query(this.db).findById(id);
    return user ? user.toPublic() : null;
  }

  /** Issues a new opaque API token; only its hash is stored. */
  async issueToken(userId: string): Promise<string> {
    const token = crypto.randomBytes(32).toString("base64url");
    await ApiToken.query(this.db).insert({
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + API_TOKEN_TTL_DAYS * 24 * 3600 * 1000),
    });
    return token;
  }

  /** The user behind a token, or null when it is unknown, expired or revoked. */
  async authenticateToken(token: string): Promise<{ user: PublicUser; tokenId: string } | null> {
    if (token.length > 200) return null;
    const row = await ApiToken.query(this.db)
      .select("api_tokens.id as tokenId", "api_tokens.userId")
      .where("tokenHash", hashToken(token))
      .where("expiresAt", ">", new Date())
      .first();
    if (!row) return null;
    const user = await User.query(this.db).findById(row.userId);
    return user ? { user: user.toPublic(), tokenId: (row as unknown as { tokenId: string }).tokenId } : null;
  }

  /**
   * Makes sure the configured administrator exists (how a deployment gets its first admin).
   * An existing account with that email is made an admin; its password is left as it is.
   */
  async ensureAdmin(admin: { email: string; password: string; name: string }): Promise<"created" | "promoted" | "present"> {
    const existing = await User.query(this.db).where("email", admin.email).first();
    if (existing) {
      if (existing.role === "admin") return "present";
      await User.query(this.db).patch({ role: "admin" }).where("id", existing.id);
      return "promoted";
    }
    await User.query(this.db).insert({
      name: admin.name,
      email: admin.email,
      passwordHash: await hashPassword(admin.password),
      role: "admin",
    });
    return "created";
  }
}
