import type { Knex } from "knex";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { Order } from "../orders/order.model";
import { ConflictError, InvalidInputError, NotFoundError } from "../shared/errors.shared";
import type { RateLimiter, RateLimitRule } from "../shared/rate-limiter";
import { proportionHalfUp, toPaisa } from "../shared/money.shared";
import { validateInput } from "../shared/validation";
import { DiscountCode } from "./discount-code.model";
import {
  CODE_NOT_VALID,
  CODE_TAKEN,
  FIRST_ORDER_ONLY,
  TOO_MANY_CODES,
  normaliseDiscountCode,
} from "./discount-values.shared";
import type { PublicDiscount } from "./discount.shape";
import { discountInputSchema } from "./discounts.schemas";

export type { PublicDiscount };

/** A code's uses: its orders that are not Cancelled (a cancelled order gives its use back). */
const USED_COUNT_SQL =
  "(SELECT COUNT(*) FROM orders WHERE orders.discount_code_id = discount_codes.id AND orders.status <> 'Cancelled')::int AS used_count";

/**
 * The discount codes (docs/product.md, "Discount codes"): admins list, create, edit and
 * deactivate them; codes are never deleted, since orders point at them. The rules a code must
 * pass at checkout are `applyDiscount` below, which placing an order runs in its transaction.
 */
export class DiscountsService {
  constructor(private readonly db: Database) {}

  /** Every code, newest first, with its use count. */
  async listCodes(): Promise<PublicDiscount[]> {
    const rows = await DiscountCode.query(this.db)
      .modify("newestFirst")
      .select("discount_codes.*", DiscountCode.raw(USED_COUNT_SQL));
    return rows.map((row) => row.toPublic((row as DiscountCode & { usedCount: number }).usedCount));
  }

  async getCode(id: string): Promise<PublicDiscount> {
    return this.readCode(this.db, id);
  }

  async createCode(input: unknown): Promise<PublicDiscount> {
    const fields = this.fieldsOf(input);
    try {
      const created = await DiscountCode.query(this.db).insert(fields);
      return this.readCode(this.db, created.id);
    } catch (error) {
      throw uniqueCodeError(error) ?? error;
    }
  }

  /** Replaces a code's fields (PUT). Orders placed with it keep the code and amount they had. */
  async updateCode(id: string, input: unknown): Promise<PublicDiscount> {
    const fields = this.fieldsOf(input);
    if (!isUuid(id)) throw new NotFoundError("Discount code not found");
    try {
      return await this.db.transaction(async (trx) => {
        const updated = await DiscountCode.query(trx).findById(id).patch(fields);
        if (updated === 0) throw new NotFoundError("Discount code not found");
        return this.readCode(trx, id);
      });
    } catch (error) {
      throw uniqueCodeError(error) ?? error;
    }
  }

  /** Deactivating (or activating again) from the admin list: the code stays, its orders too. */
  async setActive(id: string, active: boolean): Promise<PublicDiscount> {
    if (!isUuid(id)) throw new NotFoundError("Discount code not found");
    const updated = await DiscountCode.query(this.db).findById(id).patch({ active });
    if (updated === 0) throw new NotFoundError("Discount code not found");
    return this.readCode(this.db, id);
  }

  private fieldsOf(input: unknown) {
    const { startsAt, endsAt, maxUses, ...fields } = validateInput(discountInputSchema, input);
    return {
      ...fields,
      type: fields.type as DiscountCode["type"],
      firstOrderOnly: fields.firstOrderOnly ?? false,
      active: fields.active ?? false,
      startsAt: startsAt ? new Date(startsAt) : null,
      endsAt: endsAt ? new Date(endsAt) : null,
      maxUses: maxUses ?? null,
    };
  }

  private async readCode(db: Knex, id: string): Promise<PublicDiscount> {
    if (!isUuid(id)) throw new NotFoundError("Discount code not found");
    const row = await DiscountCode.query(db).findById(id).select("discount_codes.*", DiscountCode.raw(USED_COUNT_SQL));
    if (!row) throw new NotFoundError("Discount code not found");
    return row.toPublic((row as DiscountCode & { usedCount: number }).usedCount);
  }
}

function uniqueCodeError(error: unknown): ConflictError | null {
  const code =
    (error as { nativeError?: { code?: string }; code?: string }).nativeError?.code ??
    (error as { code?: string }).code;
  return code === "23505" ? new ConflictError(CODE_TAKEN) : null;
}

/**
 * Failed codes (unknown, inactive, not yet started, ended or used up) per customer in a quarter
 * hour; past it every code is refused with 429 until the window ends, a good one too, so guessing
 * learns nothing more (docs/decisions/2026-11-25-discount-code-guessing.md).
 */
export const FAILED_CODES_PER_CUSTOMER: RateLimitRule<"account"> = {
  name: "discount-failed-customer",
  per: "account",
  limit: 20,
  windowSeconds: 15 * 60,
};
/**
 * The same per client address, at twice a customer's allowance: one person with several accounts
 * (sign-up allows 10 an hour from an address) gets no more than two customers' worth, while the
 * shoppers who share an address (a mobile network's carrier-grade NAT, an office) keep room for
 * their occasional typo.
 */
export const FAILED_CODES_PER_IP: RateLimitRule<"address"> = {
  name: "discount-failed-ip",
  per: "address",
  limit: 40,
  windowSeconds: 15 * 60,
};

/** Who gives a code at checkout: the customer, and the client address when the request has one. */
export type CodeGiver = { userId: string; ip?: string };

/**
 * The limit on guessing codes, around whatever judges a code (checkout's Apply and placing an
 * order, page and API alike): refused with 429 once the customer or the address has failed too
 * many, counted when the code turns out not valid. A first-order code refused to a returning
 * customer is a valid code, and is not counted.
 */
export class DiscountCodeGuard {
  constructor(private readonly rateLimiter: RateLimiter) {}

  async judge<T>(giver: CodeGiver, attempt: () => Promise<T>): Promise<T> {
    await this.rateLimiter.refuseWhenSpent(FAILED_CODES_PER_CUSTOMER, { account: giver.userId }, TOO_MANY_CODES);
    if (giver.ip !== undefined)
      await this.rateLimiter.refuseWhenSpent(FAILED_CODES_PER_IP, { address: giver.ip }, TOO_MANY_CODES);
    try {
      return await attempt();
    } catch (error) {
      if (isFailedCode(error)) {
        await this.rateLimiter.allow(FAILED_CODES_PER_CUSTOMER, { account: giver.userId });
        if (giver.ip !== undefined) await this.rateLimiter.allow(FAILED_CODES_PER_IP, { address: giver.ip });
      }
      throw error;
    }
  }
}

function isFailedCode(error: unknown): boolean {
  return (
    error instanceof InvalidInputError &&
    error.errors.some((problem) => problem.field === "discountCode" && problem.message === CODE_NOT_VALID)
  );
}

export type AppliedDiscount = { discountCodeId: string; code: string; amountPaisa: number };

/**
 * The rules of a code at checkout (docs/product.md, "Discount codes"), for the order's subtotal:
 * unknown, inactive, not yet started, expired or used up is "not valid"; a first-order code is
 * refused to a customer with an order that is not Cancelled. A percentage is rounded half up to
 * the paisa; a fixed amount never exceeds the subtotal. Refusals are field errors on
 * `discountCode` (400).
 *
 * With `lock`, inside the transaction that places the order, the code's row is locked first, so
 * concurrent checkouts count its uses one after the other and `maxUses` holds. The caller holds
 * the customer's cart row, so one customer's checkouts never run side by side: a first-order
 * code cannot be used twice by two checkouts at once.
 */
export async function applyDiscount(
  db: Knex,
  options: { code: string; userId: string; subtotalPaisa: number; now: Date; lock: boolean },
): Promise<AppliedDiscount> {
  const query = DiscountCode.query(db).where("code", normaliseDiscountCode(options.code)).first();
  const row = await (options.lock ? query.forUpdate() : query);
  const now = options.now.getTime();
  const notValid = () => new InvalidInputError([{ field: "discountCode", message: CODE_NOT_VALID }]);
  if (!row || !row.active) throw notValid();
  if (row.startsAt && now < new Date(row.startsAt).getTime()) throw notValid();
  if (row.endsAt && now >= new Date(row.endsAt).getTime()) throw notValid();
  if (row.maxUses !== null && (await usesOf(db, row.id)) >= row.maxUses) throw notValid();
  if (row.firstOrderOnly) {
    const earlier = await Order.query(db)
      .where("userId", options.userId)
      .whereNot("status", "Cancelled")
      .first()
      .select("id");
    if (earlier) throw new InvalidInputError([{ field: "discountCode", message: FIRST_ORDER_ONLY }]);
  }
  const amountPaisa =
    row.type === "percent"
      ? proportionHalfUp(options.subtotalPaisa, toPaisa(row.value), 100 * 100)
      : Math.min(toPaisa(row.value), options.subtotalPaisa);
  return { discountCodeId: row.id, code: row.code, amountPaisa };
}

/**
 * A cancelled order that used a code takes its use again when it leaves Cancelled (as it takes its
 * stock again), or the change is refused with the reason: the code's uses are all taken, or its
 * customer has since used a first-order code on another order. The code's dates and active flag
 * are not asked again: the order keeps the terms it was placed on.
 */
export async function reclaimDiscount(
  trx: Knex,
  order: { id: string; userId: string | null; discountCodeId: string | null; discountCode: string | null },
): Promise<void> {
  if (!order.discountCodeId) return;
  const row = await DiscountCode.query(trx).findById(order.discountCodeId).forUpdate();
  if (!row) return;
  if (row.maxUses !== null && (await usesOf(trx, row.id)) >= row.maxUses) {
    throw new ConflictError(`Cannot restore this order: the discount code ${order.discountCode} is used up`);
  }
  if (row.firstOrderOnly && order.userId) {
    const other = await Order.query(trx)
      .where({ userId: order.userId, discountCodeId: row.id })
      .whereNot("status", "Cancelled")
      .whereNot("id", order.id)
      .first()
      .select("id");
    if (other) {
      throw new ConflictError(
        `Cannot restore this order: the customer has used ${order.discountCode} on another order since`,
      );
    }
  }
}

async function usesOf(db: Knex, discountCodeId: string): Promise<number> {
  return Order.query(db).where("discountCodeId", discountCodeId).whereNot("status", "Cancelled").resultSize();
}
