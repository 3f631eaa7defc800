import type { Knex } from "knex";
import * as yup from "yup";
import { hasAtMostDecimals } from "../shared/decimals.shared";
import type { Database } from "../../db/database";
import { isUuid } from "../../db/ids";
import { NotFoundError } from "../shared/errors.shared";
import type { StatementPart } from "../shared/statement";
import {
  PHONE_INPUT_MAX,
  PHONE_MESSAGE,
  isStoredPakistaniMobile,
  normalisePakistaniMobile,
} from "../shared/phone.shared";
import { validateInput } from "../shared/validation";
import { PHONE_RECORD_COLUMNS } from "./phone-record";
import type { CodFacts, CodRefusal, CodRuleName, CodRefusalCode, OrderRules } from "./order-rules.shared";
import { IBAN_MESSAGE, IBAN_PATTERN, type BankTransferSettings } from "../payments/bank-transfer.shared";

/**
 * The merchant's cash-on-delivery rules on their tables (docs/product.md, "Cash-on-delivery
 * rules", migration 20261126000036): the rules' row, the blocklist and the refusals counted.
 * Checkout (server/flows/checkout.ts) reads them with its parts below, in the order's transaction.
 */

export type BlockEntry = {
  _id: string;
  kind: "phone" | "email";
  /** +923… for a phone, lower case for an email. */
  value: string;
  note: string;
  addedBy: string;
  createdAt: string;
};

export type RefusalRecord = {
  _id: string;
  code: CodRefusalCode;
  rule: CodRuleName;
  message: string;
  phone: string | null;
  email: string;
  amount: number;
  createdAt: string;
};

export type OrderSettings = OrderRules &
  BankTransferSettings & {
    /**
     * What a parcel costs to send one way, on average (rupees), null until the merchant sets it:
     * the deliveries report prices each return to sender at twice it (server/modules/reports).
     */
    parcelShippingCost: number | null;
    blocklist: BlockEntry[];
    /** How many checkouts the rules refused, and the latest of them (newest first). */
    refusals: { count: number; latest: RefusalRecord[] };
  };

/** The admin's page lists this many of the latest refusals. */
export const LATEST_REFUSALS = 20;
export const BLOCK_NOTE_MAX = 200;
const AMOUNT_MAX = 10_000_000;

const ENTRY_MESSAGE = `Enter a mobile number (${PHONE_MESSAGE.replace(/^Enter a /, "a ")}) or an email address`;

/** Blank, null or "off" turn a rule off; absent leaves it as it is. */
const offOrNumber = (label: string, rule: { integer: boolean; min: number; max: number }) => {
  let schema = yup
    .number()
    .transform((value: unknown, original: unknown) =>
      original === null || (typeof original === "string" && ["", "off"].includes(original.trim().toLowerCase()))
        ? null
        : value,
    )
    .nullable()
    .typeError(`${label} must be a number, or empty for off`)
    .min(rule.min, `${label} must be at least ${rule.min}, or empty for off`)
    .max(rule.max, `${label} must be at most ${rule.max}`);
  if (rule.integer) schema = schema.integer(`${label} must be a whole number`);
  return schema;
};

/** Text that blank or null clears (null), absent leaves as it is. */
const clearableText = (label: string, max: number) =>
  yup
    .string()
    .transform((value: unknown, original: unknown) =>
      original === null || (typeof original === "string" && original.trim() === "")
        ? null
        : typeof original === "string"
          ? original.trim()
          : value,
    )
    .nullable()
    .typeError(`${label} must be text`)
    .max(max, `${label} must be at most ${max} characters`);

/** A phone or an email for the blocklist, as one field: an @ makes it an email. */
const blockEntrySchema = yup.object({
  value: yup
    .string()
    .transform((value: unknown) => (typeof value === "string" ? value.trim() : value))
    .typeError(ENTRY_MESSAGE)
    .required("Enter the mobile number or email to block")
    .max(254, "At most 254 characters")
    .test("phone-or-email", ENTRY_MESSAGE, (value) => value === undefined || blockedValue(value) !== null),
  note: yup
    .string()
    .transform((value: unknown, original: unknown) => (original === null ? "" : value))
    .trim()
    .typeError("Note must be text")
    .max(BLOCK_NOTE_MAX, `Note must be at most ${BLOCK_NOTE_MAX} characters`)
    .default(""),
});

/**
 * The rules as an admin changes them (the settings page and PUT /api/v1/settings/orders): each a
 * number, or null (or blank) for off; a rule not sent stays as it is. `blocklist`, when sent,
 * is the whole list: entries already there keep who added them and when.
 */
export const orderRulesSchema = yup.object({
  blockAfterReturns: offOrNumber("Returns to sender", { integer: true, min: 1, max: 1000 }),
  firstTimeCodLimit: offOrNumber("First-time limit", { integer: false, min: 1, max: AMOUNT_MAX }),
  codLimit: offOrNumber("Cash-on-delivery limit", { integer: false, min: 1, max: AMOUNT_MAX }),
  openCodOrders: offOrNumber("Open orders", { integer: true, min: 1, max: 1000 }),
  parcelShippingCost: offOrNumber("Average shipping cost", { integer: false, min: 0, max: 100_000 }).test(
    "paisa",
    "Average shipping cost must have at most 2 decimals",
    (value) => value === null || value === undefined || hasAtMostDecimals(value, 2),
  ),
  bankAccountTitle: clearableText("Account title", 100),
  bankName: clearableText("Bank", 100),
  // Spaces as banks print it are taken, and small letters.
  iban: clearableText("IBAN", 40)
    .transform((value: unknown) => (typeof value === "string" ? value.replace(/\s+/g, "").toUpperCase() : value))
    .matches(IBAN_PATTERN, { message: IBAN_MESSAGE, excludeEmptyString: true }),
  raastId: clearableText("Raast ID", PHONE_INPUT_MAX)
    .transform((value: unknown) => (typeof value === "string" ? (normalisePakistaniMobile(value) ?? value) : value))
    .test(
      "raast-mobile",
      `Raast ID: ${PHONE_MESSAGE.replace(/^Enter a /, "a ")}`,
      (value) => value === null || value === undefined || isStoredPakistaniMobile(value),
    ),
  bankTransferDiscountPercent: offOrNumber("Discount for paying in advance", { integer: false, min: 0.01, max: 50 }),
  unpaidTransferHours: offOrNumber("Hours to pay", { integer: true, min: 1, max: 24 * 30 }),
  blocklist: yup
    .array()
    .of(blockEntrySchema)
    .typeError("Blocklist must be a list of {value, note}")
    .max(10_000, "At most 10,000 entries"),
});

export { blockEntrySchema };

/** A blocklist entry's kind and stored value, or null when it is neither a mobile number nor an email. */
function blockedValue(text: string): { kind: "phone" | "email"; value: string } | null {
  if (text.includes("@")) {
    return yup.string().email().isValidSync(text) ? { kind: "email", value: text.toLowerCase() } : null;
  }
  const phone = normalisePakistaniMobile(text);
  return phone && isStoredPakistaniMobile(phone) ? { kind: "phone", value: phone } : null;
}

type Admin = { _id: string; name: string };

export class OrderRulesService {
  constructor(private readonly db: Database) {}

  /** The rules, the blocklist (newest first) and the refusals: the settings page and GET /settings/orders. */
  async settings(): Promise<OrderSettings> {
    const [rules, blocklist, latest, counted] = await Promise.all([
      this.db("order_rules").where({ id: 1 }).first(),
      this.db("order_blocklist").orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ]),
      this.db("cod_refusals").orderBy("id", "desc").limit(LATEST_REFUSALS),
      this.db("cod_refusals").count<{ count: string }[]>("* as count").first(),
    ]);
    return {
      ...rulesOf(rules),
      parcelShippingCost: rules?.parcelShippingCost ?? null,
      ...bankTransferOf(rules),
      blocklist: blocklist.map((row) => ({
        _id: row.id,
        kind: row.kind,
        value: row.value,
        note: row.note,
        addedBy: row.addedByName,
        createdAt: new Date(row.createdAt).toISOString(),
      })),
      refusals: {
        count: Number(counted?.count ?? 0),
        latest: latest.map((row) => ({
          _id: String(row.id),
          code: row.code,
          rule: row.rule,
          message: row.message,
          phone: row.phone,
          email: row.email,
          amount: Number(row.amount),
          createdAt: new Date(row.createdAt).toISOString(),
        })),
      },
    };
  }

  /** Changes the rules (and, when sent, the whole blocklist) in one transaction. */
  async update(input: unknown, admin: Admin): Promise<OrderSettings> {
    const { blocklist, iban, ...rules } = validateInput(orderRulesSchema, input);
    const changed = Object.fromEntries(
      Object.entries({ ...rules, bankIban: iban }).filter(([, value]) => value !== undefined),
    );
    await this.db.transaction(async (trx) => {
      await trx("order_rules")
        .where({ id: 1 })
        .update({ ...changed, updatedAt: trx.fn.now(), updatedByName: admin.name });
      if (blocklist) {
        const entries = new Map<string, { kind: string; value: string; note: string }>();
        for (const entry of blocklist) {
          const found = blockedValue(entry.value!)!;
          entries.set(`${found.kind}:${found.value}`, { ...found, note: entry.note ?? "" });
        }
        const kept = [...entries.values()];
        await trx("order_blocklist")
          .whereRaw("NOT (kind || ':' || value = ANY(?))", [kept.map((entry) => `${entry.kind}:${entry.value}`)])
          .delete();
        if (kept.length > 0) {
          await trx("order_blocklist")
            .insert(kept.map((entry) => ({ ...entry, addedBy: admin._id, addedByName: admin.name })))
            .onConflict(["kind", "value"])
            .merge(["note"]);
        }
      }
    });
    return this.settings();
  }

  /** Adds a phone or an email to the blocklist (already there: its note is replaced). */
  async block(input: unknown, admin: Admin): Promise<void> {
    const { value, note } = validateInput(blockEntrySchema, input);
    const entry = blockedValue(value)!;
    await this.db("order_blocklist")
      .insert({ ...entry, note, addedBy: admin._id, addedByName: admin.name })
      .onConflict(["kind", "value"])
      .merge(["note"]);
  }

  async unblock(entryId: string): Promise<void> {
    if (!isUuid(entryId)) throw new NotFoundError("Blocklist entry not found");
    const removed = await this.db("order_blocklist").where({ id: entryId }).delete();
    if (removed === 0) throw new NotFoundError("Blocklist entry not found");
  }
}

/**
 * The store's bank account and the advance payment's settings (checkout, the order's page, the
 * unpaid sweep): one read of the settings' row.
 */
export async function bankTransferSettings(db: Knex): Promise<BankTransferSettings> {
  return bankTransferOf(
    await db("order_rules")
      .where({ id: 1 })
      .first(
        "bankAccountTitle",
        "bankName",
        "bankIban",
        "raastId",
        "bankTransferDiscountPercent",
        "unpaidTransferHours",
      ),
  );
}

function bankTransferOf(row: Record<string, unknown> | undefined): BankTransferSettings {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    bankAccountTitle: text(row?.bankAccountTitle),
    bankName: text(row?.bankName),
    iban: text(row?.bankIban),
    raastId: text(row?.raastId),
    bankTransferDiscountPercent: number(row?.bankTransferDiscountPercent),
    unpaidTransferHours: number(row?.unpaidTransferHours),
  };
}

function rulesOf(row: Record<string, unknown> | undefined): OrderRules {
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    blockAfterReturns: number(row?.blockAfterReturns),
    firstTimeCodLimit: number(row?.firstTimeCodLimit),
    codLimit: number(row?.codLimit),
    openCodOrders: number(row?.openCodOrders),
  };
}

/**
 * The rules as an expression of checkout's locking read (one JSON object, or null when every rule
 * is off and the blocklist is empty: then checkout judges nothing and locks no phone).
 */
export const ORDER_RULES_EXPRESSION = `(SELECT json_build_object(
     'blockAfterReturns', block_after_returns, 'firstTimeCodLimit', first_time_cod_limit,
     'codLimit', cod_limit, 'openCodOrders', open_cod_orders)
   FROM order_rules
  WHERE id = 1 AND (block_after_returns IS NOT NULL OR first_time_cod_limit IS NOT NULL OR cod_limit IS NOT NULL
                    OR open_cod_orders IS NOT NULL OR EXISTS (SELECT 1 FROM order_blocklist)))`;

/** The rules read by ORDER_RULES_EXPRESSION, as numbers (PostgreSQL's numeric arrives as text in JSON). */
export function orderRulesFrom(json: Record<string, unknown> | null): OrderRules | null {
  return json ? rulesOf(json) : null;
}

/**
 * What the rules judge, as a part of checkout's write statement (`cod_facts`, one row; its
 * columns are read back by codFactsFrom): for an order with a phone, the phone's record and
 * whether the phone or the email is blocked; without one, the account's delivered orders (the
 * only input the amount limits then take, RULINGS). A part of the write rather than a statement
 * of its own saves a round trip per order (docs/decisions/2026-11-26-cod-rules.md): the write's
 * snapshot is taken after the phone's lock was granted, so it sees every order of the phone
 * committed before, and not the order it inserts itself (the parts of one statement share one
 * snapshot).
 */
export function codFactsPart(order: { phone: string | null; email: string; userId: string }): StatementPart {
  if (!order.phone) {
    return {
      name: "cod_facts",
      sql: `SELECT 0 AS delivered, 0 AS returned, 0 AS "openCod", false AS blocked,
                   (SELECT COUNT(*)::int FROM orders WHERE user_id = :codUserId AND status = 'Delivered') AS "accountDelivered"`,
      bindings: { codUserId: order.userId },
    };
  }
  return {
    name: "cod_facts",
    sql: `SELECT record.delivered, record.returned, record."openCod",
                 EXISTS (SELECT 1 FROM order_blocklist
                          WHERE (kind = 'phone' AND value = :codPhone) OR (kind = 'email' AND value = lower(:codEmail))) AS blocked,
                 NULL::int AS "accountDelivered"
            FROM (SELECT ${PHONE_RECORD_COLUMNS} FROM orders WHERE phone = :codPhone) AS record`,
    bindings: { codPhone: order.phone, codEmail: order.email },
  };
}

/** The columns codFactsPart reads, as the final select of the statement answers them. */
export type CodFactsRow = {
  delivered: number;
  returned: number;
  openCod: number;
  blocked: boolean;
  accountDelivered: number | null;
};

/** What the rules judge of an order, from its `cod_facts` row (codFactsPart). */
export function codFactsFrom(row: CodFactsRow, order: { phone: string | null; total: number }): CodFacts {
  return {
    total: order.total,
    phone: order.phone,
    blocked: row.blocked,
    phoneRecord: { delivered: row.delivered, returned: row.returned, openCod: row.openCod },
    accountDelivered: row.accountDelivered,
  };
}

/** Counts a refusal (after its order's transaction was rolled back), for the admin's page. */
export async function recordCodRefusal(
  db: Knex,
  refusal: CodRefusal & { phone: string | null; email: string; userId: string; amount: number },
): Promise<void> {
  await db("cod_refusals").insert({
    code: refusal.code,
    rule: refusal.rule,
    message: refusal.message,
    phone: refusal.phone,
    email: refusal.email,
    userId: refusal.userId,
    amount: refusal.amount,
  });
}
