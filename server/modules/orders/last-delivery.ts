import type { Database } from "../../db/database";
import type { Address } from "../shared/address.shared";
import { Order } from "./order.model";

/** Where a customer's newest order went: its address and the receiver's mobile number (+923…, or null). */
export type LastDelivery = { address: Address; phone: string | null };

/**
 * The address the customer used last, for checkout to fill in (docs/product.md, "Orders"): the
 * one of their newest order, cancelled or not (a cancelled order's address was still theirs).
 */
export class LastDeliveryService {
  constructor(private readonly db: Database) {}

  async of(userId: string): Promise<LastDelivery | null> {
    const newest = await Order.query(this.db)
      .where("userId", userId)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .select("street", "city", "state", "zipCode", "country", "phone")
      .first();
    if (!newest) return null;
    const { street, city, state, zipCode, country, phone } = newest;
    return { address: { street, city, state, zipCode, country }, phone };
  }
}
