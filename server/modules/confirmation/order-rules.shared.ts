import { formatRupees, toPaisa } from "../shared/money.shared";

/**
 * The merchant's cash-on-delivery rules (docs/product.md, "Cash-on-delivery rules"): what they
 * are, their defaults, and the one judgement checkout makes with them. Plain code: the admin
 * page shows the same words.
 */

/** Each rule a number, null when the merchant turned it off. */
export type OrderRules = {
  /** A phone is refused at this many returns to sender (or more). */
  blockAfterReturns: number | null;
  /** The most (rupees) a first-time phone may order on cash on delivery. */
  firstTimeCodLimit: number | null;
  /** The most (rupees) anyone may order on cash on delivery. */
  codLimit: number | null;
  /** Open (not yet delivered) cash-on-delivery orders a phone may have, this one included. */
  openCodOrders: number | null;
};

export const DEFAULT_ORDER_RULES: OrderRules = {
  blockAfterReturns: 2,
  firstTimeCodLimit: 50_000,
  codLimit: null,
  openCodOrders: 2,
};

/** The stable codes of a refusal, in the API's 409 beside the message. */
export const COD_REFUSAL_CODES = ["COD_BLOCKED", "COD_LIMIT", "COD_OPEN_ORDERS"] as const;
export type CodRefusalCode = (typeof COD_REFUSAL_CODES)[number];

/** Which rule refused, as the admin's page names it. */
export const COD_RULE_NAMES = {
  blocklist: "Blocklist",
  returns: "Returns to sender",
  firstTimeLimit: "First-time limit",
  codLimit: "Cash-on-delivery limit",
  openOrders: "Open orders",
} as const;
export type CodRuleName = (typeof COD_RULE_NAMES)[keyof typeof COD_RULE_NAMES];

export type CodRefusal = { code: CodRefusalCode; rule: CodRuleName; message: string };

/** What checkout knows of the order when it judges it, read under the phone's lock. */
export type CodFacts = {
  /** What the order comes to, in rupees. */
  total: number;
  /** The order's mobile number (+923…), or null: then only the amount limits apply (RULINGS). */
  phone: string | null;
  /** The phone or the customer's email is on the blocklist. */
  blocked: boolean;
  /** The phone's orders: delivered, returned to sender, open on cash on delivery (zeros without a phone). */
  phoneRecord: { delivered: number; returned: number; openCod: number };
  /** The account's delivered orders: first-time is judged by them for an order without a phone (null with one: not read). */
  accountDelivered: number | null;
};

/** What the shopper can still do: pay in advance by bank transfer when the store offers it, else ask. */
const advanceWords = (offered: boolean) =>
  offered
    ? {
        sentence: "You can still order it by paying in advance by bank transfer.",
        clause: "pay in advance by bank transfer.",
      }
    : {
        sentence: "You can still order it by paying in advance: please contact us.",
        clause: "pay in advance: please contact us.",
      };

/**
 * Whether a cash-on-delivery order passes the rules, and if not which rule refused it and why, in
 * plain words. Limits are "at most" (an order of exactly the limit passes); a phone is blocked at
 * N or more returns; "first-time" means the phone (or, without one, the account) has no delivered
 * order; the blocklist, the returns and the open orders count phones only.
 */
export function codRefusal(rules: OrderRules, facts: CodFacts, advanceOffered = false): CodRefusal | null {
  const { phone, phoneRecord } = facts;
  const advance = advanceWords(advanceOffered);
  if (phone && facts.blocked) {
    return {
      code: "COD_BLOCKED",
      rule: COD_RULE_NAMES.blocklist,
      message: `Cash on delivery is not available for this mobile number or email. ${advance.sentence}`,
    };
  }
  if (phone && rules.blockAfterReturns !== null && phoneRecord.returned >= rules.blockAfterReturns) {
    return {
      code: "COD_BLOCKED",
      rule: COD_RULE_NAMES.returns,
      message: `Cash on delivery is not available for this mobile number: ${phoneRecord.returned} earlier ${phoneRecord.returned === 1 ? "parcel was" : "parcels were"} returned to sender. ${advance.sentence}`,
    };
  }
  if (phone && rules.openCodOrders !== null && phoneRecord.openCod >= rules.openCodOrders) {
    return {
      code: "COD_OPEN_ORDERS",
      rule: COD_RULE_NAMES.openOrders,
      message: `This mobile number already has ${phoneRecord.openCod} cash-on-delivery ${phoneRecord.openCod === 1 ? "order" : "orders"} on the way, the most we take at once. You can order again when one is delivered, or ${advance.clause}`,
    };
  }
  const firstTime = (phone ? phoneRecord.delivered : facts.accountDelivered) === 0;
  const totalPaisa = toPaisa(facts.total);
  if (firstTime && rules.firstTimeCodLimit !== null && totalPaisa > toPaisa(rules.firstTimeCodLimit)) {
    return {
      code: "COD_LIMIT",
      rule: COD_RULE_NAMES.firstTimeLimit,
      message: `A first cash-on-delivery order can be at most ${formatRupees(rules.firstTimeCodLimit)}; this one is ${formatRupees(facts.total)}. Remove some items, or ${advance.clause}`,
    };
  }
  if (rules.codLimit !== null && totalPaisa > toPaisa(rules.codLimit)) {
    return {
      code: "COD_LIMIT",
      rule: COD_RULE_NAMES.codLimit,
      message: `A cash-on-delivery order can be at most ${formatRupees(rules.codLimit)}; this one is ${formatRupees(facts.total)}. Remove some items, or ${advance.clause}`,
    };
  }
  return null;
}

/** Whether any rule is on: with none, checkout reads no record and takes no phone lock. */
export function anyRuleOn(rules: OrderRules): boolean {
  return Object.values(rules).some((value) => value !== null);
}
