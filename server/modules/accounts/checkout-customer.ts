import type { Knex } from "knex";
import type { StatementPart } from "../shared/statement";

/**
 * The accounts module's parts of checkout (server/flows/checkout.ts): the customer read and
 * locked first, and a profile without a phone given the order's number.
 */

/**
 * The customer placing an order (`customer`: `id`, `name`, `email`, `phone`, `language`), key-share locked:
 * the order's reference to them needs this lock anyway, and an admin deleting the customer takes
 * it before the cart's (through the cascade), as checkout does; taken after the cart it
 * deadlocked with such a deletion.
 */
export function customerLockPart(userId: string): StatementPart {
  return {
    name: "customer",
    materialized: true,
    sql: "SELECT id, name, email, phone, language FROM users WHERE id = :userId FOR KEY SHARE",
    bindings: { userId },
  };
}

/**
 * The number an order gave fills the customer's profile when it has none, so the next checkout
 * is prefilled with it; the language chosen for the order's messages becomes the account's
 * (`profiled`). Null leaves each as it is. One UPDATE: a statement changes a row once.
 */
export function profileFilledPart(userId: string, phone: string | null, language: string | null): StatementPart {
  return {
    name: "profiled",
    sql: `UPDATE users SET phone = CASE WHEN :profilePhone::text IS NOT NULL AND btrim(phone) = '' THEN :profilePhone
                                        ELSE phone END,
                           language = COALESCE(:profileLanguage::text, language), updated_at = now()
           WHERE id = :userId
             AND ((:profilePhone::text IS NOT NULL AND btrim(phone) = '')
                  OR (:profileLanguage::text IS NOT NULL AND language IS DISTINCT FROM :profileLanguage::text))`,
    bindings: { userId, profilePhone: phone, profileLanguage: language },
  };
}

/** The language the customer chose for their orders' messages at their last checkout; null: never chosen. */
export async function accountMessageLanguage(db: Knex, userId: string): Promise<string | null> {
  const row = await db("users").where({ id: userId }).first("language");
  return (row?.language as string | null | undefined) ?? null;
}
