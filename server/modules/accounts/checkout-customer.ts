import type { StatementPart } from "../shared/statement";

/**
 * The accounts module's parts of checkout (server/flows/checkout.ts): the customer read and
 * locked first, and a profile without a phone given the order's number.
 */

/**
 * The customer placing an order (`customer`: `id`, `name`, `email`, `phone`), key-share locked:
 * the order's reference to them needs this lock anyway, and an admin deleting the customer takes
 * it before the cart's (through the cascade), as checkout does; taken after the cart it
 * deadlocked with such a deletion.
 */
export function customerLockPart(userId: string): StatementPart {
  return {
    name: "customer",
    materialized: true,
    sql: "SELECT id, name, email, phone FROM users WHERE id = :userId FOR KEY SHARE",
    bindings: { userId },
  };
}

/**
 * The number an order gave fills the customer's profile when it has none (`profiled`), so the
 * next checkout is prefilled with it; null leaves the profile as it is.
 */
export function profilePhoneFilledPart(userId: string, phone: string | null): StatementPart {
  return {
    name: "profiled",
    sql: `UPDATE users SET phone = :profilePhone, updated_at = now()
           WHERE id = :userId AND :profilePhone::text IS NOT NULL AND btrim(phone) = ''`,
    bindings: { userId, profilePhone: phone },
  };
}
