import type { Database } from "../../db/database";
import type { RateLimiter, RateLimitRule } from "../shared/rate-limiter";
import { validateInput } from "../shared/validation";
import { ContactMessage, type PublicContactMessage } from "./contact-message.model";
import { MESSAGES_PER_PAGE, contactMessageListQuerySchema, contactMessageSchema } from "./contact.schemas";

/** A person writes a few messages; a spammer writes many. Counted in PostgreSQL, across app servers. */
export const CONTACT_PER_IP: RateLimitRule<"address"> = {
  name: "contact-ip",
  per: "address",
  limit: 5,
  windowSeconds: 60 * 60,
};
export const TOO_MANY_MESSAGES = "Too many messages sent from your connection. Please try again later.";

/** The contact form's messages: kept for the administrators (docs/product.md, "Contact and content"). */
export class ContactService {
  constructor(
    private readonly db: Database,
    private readonly rateLimiter: RateLimiter,
  ) {}

  /** Validates first (a typo costs no attempt), then counts the sender, then stores the message. */
  async sendMessage(input: unknown, sender: { ip: string; userId?: string | null }): Promise<PublicContactMessage> {
    const message = validateInput(contactMessageSchema, input);
    await this.rateLimiter.hit(CONTACT_PER_IP, { address: sender.ip }, TOO_MANY_MESSAGES);
    const stored = await ContactMessage.query(this.db).insertAndFetch({ ...message, userId: sender.userId ?? null });
    return stored.toPublic();
  }

  /** Newest first, 50 a page. */
  async listMessages(query: unknown) {
    const { page } = validateInput(contactMessageListQuerySchema, query);
    const [messages, total] = await Promise.all([
      ContactMessage.query(this.db)
        .orderBy([
          { column: "createdAt", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(MESSAGES_PER_PAGE)
        .offset((page - 1) * MESSAGES_PER_PAGE),
      ContactMessage.query(this.db).resultSize(),
    ]);
    return {
      messages: messages.map((message) => message.toPublic()),
      pagination: { total, page, pages: Math.max(1, Math.ceil(total / MESSAGES_PER_PAGE)), limit: MESSAGES_PER_PAGE },
    };
  }

  async countMessages(): Promise<number> {
    return ContactMessage.query(this.db).resultSize();
  }
}
