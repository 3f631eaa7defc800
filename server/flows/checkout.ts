import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { Database } from "../db/database";
import { accountMessageLanguage, profileFilledPart } from "../modules/accounts/checkout-customer";
import { cartEmptiedParts, cartPrices } from "../modules/cart/cart-checkout";
import { NOT_ENOUGH_STOCK } from "../modules/cart/cart.service";
import { stockTakenPart } from "../modules/catalog/stock";
import { applyDiscount, type DiscountCodeGuard } from "../modules/discounts/discounts.service";
import type { MailContext } from "../modules/mail/mail-layout";
import { orderPlacedParts, type NewOrder } from "../modules/orders/order-checkout";
import {
  confirmationCapPart,
  confirmationToken,
  confirmationTokenHash,
  orderTextsInsertPart,
} from "../modules/confirmation/order-confirmation";
import type { TextChannel } from "../modules/confirmation/order-confirmation.shared";
import { newOrderMail, orderPlacedMail, type MailOrder } from "../modules/orders/order-mails";
import { advanceDiscountPaisa } from "../modules/payments/bank-transfer.shared";
import { codFactsFrom, codFactsPart, recordCodRefusal, type CodFactsRow } from "../modules/confirmation/order-rules";
import { codRefusal, type CodRefusal } from "../modules/confirmation/order-rules.shared";
import type { PublicOrder } from "../modules/orders/order.shape";
import { systemClock, type Clock } from "../modules/shared/clock";
import {
  CallerAccountGoneError,
  CodedConflictError,
  ConflictError,
  InvalidInputError,
  RuleViolationError,
} from "../modules/shared/errors.shared";
import { fromPaisa, toPaisa } from "../modules/shared/money.shared";
import { formatPakistaniMobile, normalisePakistaniMobile } from "../modules/shared/phone.shared";
import { composeStatement } from "../modules/shared/statement";
import { validateInput } from "../modules/shared/validation";
import { messageOf, type MessageChannels } from "../providers/message-channels/message-channels";
import { cashOnDelivery } from "../providers/payment-methods/cash-on-delivery.shared";
import {
  paymentMethodNamed,
  type PaymentMethod,
  type PaymentMethodName,
} from "../providers/payment-methods/payment-methods.shared";
import { checkoutQuoteSchema, placeOrderSchema } from "./checkout.schemas";
import { PHONE_LOCK_SQL, lockCheckout } from "./checkout-lock";
import { paymentChoice, type PaymentChoice } from "./checkout-payment";
import { defaultMessageLanguage, type MessageLanguage } from "../modules/orders/order-values.shared";
import { readOrder } from "../modules/order-life/orders-reading";
import { lifeView, placedLife } from "../modules/order-life/order-life-view.shared";

export type { PaymentChoice };

/** What the cart comes to at checkout with a discount code (docs/product.md, "Discount codes"). */
export type CheckoutQuote = {
  subtotal: number;
  discount: { code: string; amount: number } | null;
  totalPrice: number;
};

/** What placing an order takes, as validated. */
type CheckoutInput = {
  paymentMethod?: string;
  address: { street: string; city: string; state: string; zipCode: string; country: string };
  phone?: string | null;
  idempotencyKey?: string | null;
  discountCode?: string | null;
  language?: MessageLanguage;
};

/** Tries of a checkout whose cart keeps changing under it before the answer is a plain 409. */
const CHECKOUT_TRIES = 5;

/** The cart changed while checkout waited for it: read again in a new transaction. */
class CartChangedMeanwhile extends Error {}

/**
 * A cash-on-delivery rule refused the order (a 409 with the rule's code): the transaction is
 * rolled back, then the refusal is counted with what the admin's page shows of it.
 */
class CodRefused extends CodedConflictError {
  constructor(
    readonly refusal: CodRefusal,
    readonly order: { phone: string | null; email: string; userId: string; amount: number },
  ) {
    super(refusal.message, refusal.code);
  }
}

/**
 * Checkout (docs/product.md, "Orders"): the cart's quote with a discount code, and the cart
 * turned into an order. It spans the modules: the customer (accounts), the cart and its lines
 * (cart), their products' stock (catalog), the discount code (discounts), the order (orders), its
 * mails (a message channel) and the payment method (a provider). Each module writes the part of
 * a statement for its own tables; this flow composes them, so an order still costs two
 * statements in one transaction (docs/decisions/2026-11-25-flows.md).
 */
export class CheckoutFlow {
  constructor(
    private readonly db: Database,
    private readonly deps: {
      mail: MailContext;
      messages: MessageChannels;
      /** Those PAYMENT_METHODS offers; an order names none yet, so it takes the first. */
      paymentMethods: readonly PaymentMethod[];
      codeGuard: DiscountCodeGuard;
      /** The confirmation's texts: the key of its tokens, and the channel a text tries first (docs/product.md, "Confirming an order"). */
      confirmation: { secret: string; channel: TextChannel };
      clock?: Clock;
    },
  ) {}

  private get clock(): Clock {
    return this.deps.clock ?? systemClock;
  }

  /**
   * The language checkout offers first for the order's messages: the account's last choice, else
   * Urdu (the checkout page takes a Pakistani mobile number, whose default it is).
   */
  async messageLanguage(userId: string): Promise<MessageLanguage> {
    const chosen = await accountMessageLanguage(this.db, userId);
    return chosen === "en" || chosen === "ur" ? chosen : defaultMessageLanguage("+92");
  }

  /** The payment methods offered at checkout now, with the store's account and its discount (checkout-payment.ts). */
  paymentChoice(db: Knex = this.db): Promise<PaymentChoice> {
    return paymentChoice(db, this.deps.paymentMethods);
  }

  /**
   * Turns the cart into an order, in one transaction: the cart row is locked (so a double
   * submit waits, then finds its order or an empty cart); every product of the cart is locked
   * in id order (no deadlock between shoppers) and its stock claimed; prices are taken from
   * the products now and copied, with name and image, into the order; the cart is emptied.
   * The database's CHECK (stock >= 0) stands behind all of this. Round trips are what a checkout
   * under load waits for, so the reads are joined, every write is one statement and the answer
   * is made from what is at hand rather than read back.
   */
  async placeOrder(userId: string, input: unknown, options: { client?: { ip: string } } = {}): Promise<PublicOrder> {
    const { address, phone, idempotencyKey, discountCode, language, paymentMethod } = validateInput(
      placeOrderSchema,
      input,
    );
    const place = () =>
      this.placeOrderTrying(userId, {
        paymentMethod,
        address,
        phone,
        idempotencyKey,
        discountCode,
        language: language as MessageLanguage | undefined,
      });
    // A code is limited against guessing (the pages and the API pass the client's address).
    return discountCode ? this.deps.codeGuard.judge({ userId, ip: options.client?.ip }, place) : place();
  }

  private async placeOrderTrying(userId: string, input: CheckoutInput): Promise<PublicOrder> {
    // A try whose cart changed while it waited for the cart's lock reads it again in a new
    // transaction (lockCheckout); it then holds the lock, so a second try is the most it takes.
    // One statement for the whole checkout, without a transaction (3 round trips), was tried
    // and measured slower under the bench's 50 shoppers (about a third more PostgreSQL CPU per
    // order). The likely cause: a statement that waited for a product row re-checks the newer
    // row (EvalPlanQual), and its UPDATE of stock meets rows changed since its snapshot, each
    // re-check setting up the statement's parts again, and that statement is large; here the
    // waits fall on the small reading statement, and the writes start after the locks.
    for (let tries = 1; ; tries += 1) {
      try {
        return await this.db.transaction((trx) => this.placeOrderIn(trx, userId, input));
      } catch (error) {
        if (error instanceof CodRefused) await recordCodRefusal(this.db, { ...error.refusal, ...error.order });
        if (!(error instanceof CartChangedMeanwhile)) throw error;
        if (tries >= CHECKOUT_TRIES) throw new ConflictError("Your cart changed while the order was being placed");
      }
    }
  }

  private async placeOrderIn(trx: Knex.Transaction, userId: string, input: CheckoutInput): Promise<PublicOrder> {
    const { address, phone, idempotencyKey, discountCode, language } = input;
    // An order names its method, else takes the first offered (cash on delivery): a method paid in
    // advance is judged against the store's account, read only for such an order.
    const named = input.paymentMethod ? paymentMethodNamed(input.paymentMethod) : this.deps.paymentMethods[0]!;
    const choice = named.paidBeforeShipping ? await this.paymentChoice(trx) : null;
    if (choice && !choice.methods.includes(named)) {
      throw new InvalidInputError([{ field: "paymentMethod", message: `${named.label} is not offered by this store` }]);
    }
    if (!choice && !this.deps.paymentMethods.includes(named)) {
      throw new InvalidInputError([{ field: "paymentMethod", message: `${named.label} is not offered by this store` }]);
    }
    // A cash-on-delivery order with a number asks it to confirm, at most a few times a day per
    // number (CONFIRMATION_REQUESTS_PER_NUMBER): counted under the phone's lock, as the rules are.
    const confirmationRequested = !named.paidBeforeShipping;
    const { user, cart, fresh, earlierOrderId, lines, rules, lockedPhone } = await lockCheckout(trx, {
      userId,
      idempotencyKey: idempotencyKey || "",
      phone: phone ?? null,
      confirmationRequested,
    });
    if (!user) throw new CallerAccountGoneError();
    if (!fresh) throw new CartChangedMeanwhile();
    if (earlierOrderId) return readOrder(trx, earlierOrderId);
    const subtotalPaisa = lines.reduce((sum, line) => sum + toPaisa(line.price) * line.quantity, 0);
    // The code's rules, under its lock (docs/product.md, "Discount codes"), before any other rule
    // of the order, so that a code is always judged (and a failed one counted) the same way; a
    // refusal rolls everything back, so no order is made and the cart stays as it was.
    const discount = discountCode
      ? await applyDiscount(trx, { code: discountCode, userId, subtotalPaisa, now: this.clock(), lock: true })
      : null;
    // A line's product deleted meanwhile left the cart by cascade.
    if (!cart || lines.length === 0) throw new RuleViolationError("Your cart is empty");
    const short = lines.filter((line) => line.stock < line.quantity);
    if (short.length > 0) {
      throw new ConflictError(`${NOT_ENOUGH_STOCK} for ${short.map((line) => line.name).join(", ")}`);
    }
    // Without a number of its own the order takes the profile's, if that is a mobile number;
    // a number given fills an empty profile (written with the order, below), so the next
    // checkout is prefilled with it.
    const profilePhone = phone && !user.phone.trim() ? formatPakistaniMobile(phone) : null;

    const afterCodePaisa = subtotalPaisa - (discount?.amountPaisa ?? 0);
    // The store's discount for paying in advance, on what the order comes to after the code.
    const paymentDiscountPaisa = choice ? advanceDiscountPaisa(afterCodePaisa, choice.discountPercent) : 0;
    const totalPrice = fromPaisa(afterCodePaisa - paymentDiscountPaisa);
    const paymentMethod = named.name as PaymentMethodName;
    // The id is made here so that the mails can name the order and everything is written at once.
    const orderId = randomUUID();
    const orderPhone = phone ?? normalisePakistaniMobile(user.phone);
    // The merchant's cash-on-delivery rules (docs/product.md, "Cash-on-delivery rules"), judged
    // under the phone's lock (taken by the locking read) on what the write statement below reads
    // with them (codFactsPart): a second checkout of the same phone waits for the lock, then
    // counts this order once it is committed.
    const judged = rules !== null && paymentMethod === cashOnDelivery.name;
    // The profile's number as written by hand may read otherwise in SQL than here: lock it now.
    if ((judged || confirmationRequested) && orderPhone && orderPhone !== lockedPhone) {
      await trx.raw(PHONE_LOCK_SQL, { phone: orderPhone });
    }
    const order: NewOrder = {
      id: orderId,
      userId,
      customerName: user.name,
      customerEmail: user.email,
      ...address,
      phone: orderPhone,
      totalPrice,
      paymentMethod,
      paymentStatus: named.paidBeforeShipping ? "awaiting" : "on-delivery",
      paymentDiscount: fromPaisa(paymentDiscountPaisa),
      idempotencyKey: idempotencyKey || null,
      discountCodeId: discount?.discountCodeId ?? null,
      discountCode: discount?.code ?? null,
      discountAmount: fromPaisa(discount?.amountPaisa ?? 0),
      language: language ?? user.language ?? defaultMessageLanguage(orderPhone),
      confirmationTokenHash: confirmationTokenHash(confirmationToken(this.deps.confirmation.secret, orderId)),
    };
    const items = lines.map((line, position) => ({
      productId: line.id,
      name: line.name,
      imageUrl: line.imageUrl,
      // The photo's files stay while this order shows them (migration 12).
      photoId: line.photoId,
      images: line.images ?? [],
      quantity: line.quantity,
      unitPrice: line.price,
      position,
    }));
    const orderDiscount = discount ? { code: discount.code, amount: fromPaisa(discount.amountPaisa) } : null;
    // The confirmation to the customer and the store's notice, written with the order.
    const mailOrder: MailOrder = {
      id: order.id,
      customerName: user.name,
      customerEmail: user.email,
      items: items.map((item) => ({ name: item.name, quantity: item.quantity, unitPrice: item.unitPrice })),
      subtotal: fromPaisa(subtotalPaisa),
      discount: orderDiscount,
      paymentDiscount: paymentDiscountPaisa > 0 ? fromPaisa(paymentDiscountPaisa) : null,
      totalPrice,
      address,
      phone: order.phone,
      paymentMethod,
    };
    const messages = [
      messageOf(orderPlacedMail(this.deps.mail, mailOrder), order.phone),
      messageOf(newOrderMail(this.deps.mail, mailOrder)),
    ];
    // Checkout's writes in one statement, one round trip whatever the number of lines: the stock
    // taken (the products are locked in id order and the stock is there), the order and its
    // items, the cart emptied (which tells a checkout of the same cart that waited for it to read
    // again: CART_READ_AS_LOCKED), the profile's empty phone filled, and the messages queued.
    // Over its number's cap (CONFIRMATION_REQUESTS_PER_NUMBER in 24 hours, any account's orders),
    // the order is placed without its confirmation request and marked so for the admin.
    const cap = confirmationRequested && order.phone ? confirmationCapPart("confirmation_cap", order.phone) : null;
    const { sql, bindings } = composeStatement(
      [
        stockTakenPart(items),
        ...(cap ? [cap] : []),
        ...orderPlacedParts(order, items, { textLimitedBy: cap?.name }),
        ...cartEmptiedParts(cart.id),
        profileFilledPart(userId, profilePhone, language ?? null),
        ...this.deps.messages.queueParts(messages),
        // The customer's confirmation, by text to the order's phone (an order without one is
        // confirmed by the admin's call); an order paid in advance is confirmed by its payment, so
        // its text says what to pay and where instead (docs/decisions/2026-11-26-advance-payment.md):
        // it asks no answer, so it is not a confirmation request and the cap leaves it alone.
        ...(order.phone
          ? [
              orderTextsInsertPart(
                "queued_texts",
                [
                  {
                    orderId,
                    channel: this.deps.confirmation.channel,
                    kind: confirmationRequested ? "confirmation" : "payment-awaited",
                    language: order.language,
                    phone: order.phone,
                  },
                ],
                { unlessLimitedBy: cap?.name },
              ),
            ]
          : []),
        ...(judged ? [codFactsPart({ phone: orderPhone, email: user.email, userId })] : []),
      ],
      {
        sql: judged
          ? `SELECT placed.created_at AS "createdAt", placed.updated_at AS "updatedAt",
                    placed.confirmation_text_limited AS "textLimited", cod_facts.* FROM placed CROSS JOIN cod_facts`
          : `SELECT created_at AS "createdAt", updated_at AS "updatedAt", confirmation_text_limited AS "textLimited" FROM placed`,
      },
    );
    const { rows } = await trx.raw<{
      rows: ({ createdAt: Date; updatedAt: Date; textLimited: boolean } & CodFactsRow)[];
    }>(sql, bindings);
    const times = rows[0]!;
    if (judged) {
      // A refusal rolls the write back with the transaction: no order, the cart and stock as they were.
      const facts = codFactsFrom(times, { phone: orderPhone, total: totalPrice });
      let refusal = codRefusal(rules, facts);
      // The refusal offers paying in advance by bank transfer when the store offers it.
      if (refusal && (await this.paymentChoice(trx)).methods.some((method) => method.paidBeforeShipping)) {
        refusal = codRefusal(rules, facts, true);
      }
      if (refusal) {
        throw new CodRefused(refusal, { phone: orderPhone, email: user.email, userId, amount: totalPrice });
      }
    }
    return {
      _id: order.id,
      user: { _id: userId, name: user.name, email: user.email },
      items: items.map((item) => ({
        product: { _id: item.productId, name: item.name, imageUrl: item.imageUrl, images: item.images },
        quantity: item.quantity,
        price: item.unitPrice,
      })),
      address: {
        street: address.street,
        city: address.city,
        state: address.state,
        zipCode: address.zipCode,
        country: address.country,
      },
      phone: order.phone,
      subtotal: fromPaisa(subtotalPaisa),
      discount: orderDiscount,
      totalPrice,
      status: "Pending",
      paymentMethod,
      payment: {
        method: paymentMethod,
        status: order.paymentStatus,
        discount: paymentDiscountPaisa > 0 ? fromPaisa(paymentDiscountPaisa) : null,
        reference: null,
        submittedAt: null,
        verifiedAmount: null,
        verifiedAt: null,
        rejectedReason: null,
        screenshot: false,
      },
      courier: null,
      trackingNumber: null,
      confirmedAt: null,
      confirmation: { status: "pending", by: null, channel: null, at: null, textLimited: times.textLimited },
      language: order.language,
      cancelReason: null,
      deliveredAt: null,
      outcome: null,
      returns: [],
      shipment: null,
      ...lifeView(
        placedLife({
          advance: named.paidBeforeShipping,
          payment: order.paymentStatus,
          phone: order.phone,
          placedAt: times.createdAt,
        }),
        totalPrice,
        this.clock(),
      ),
      refund: null,
      createdAt: times.createdAt.toISOString(),
      updatedAt: times.updatedAt.toISOString(),
    };
  }

  /**
   * What the customer's cart comes to with a discount code, before the order is placed
   * (checkout's Apply): the same rules as placing the order, read without locks; the order
   * checks them again when it is placed. A refused code is a field error on `discountCode`.
   */
  async quoteCheckout(userId: string, input: unknown, client?: { ip: string }): Promise<CheckoutQuote> {
    const { discountCode } = validateInput(checkoutQuoteSchema, input);
    const quote = () => this.quoteCheckoutWith(userId, discountCode);
    return discountCode ? this.deps.codeGuard.judge({ userId, ip: client?.ip }, quote) : quote();
  }

  private async quoteCheckoutWith(userId: string, discountCode: string | undefined): Promise<CheckoutQuote> {
    const lines = await cartPrices(this.db, userId);
    const subtotalPaisa = lines.reduce((sum, line) => sum + toPaisa(line.price) * line.quantity, 0);
    const discount = discountCode
      ? await applyDiscount(this.db, { code: discountCode, userId, subtotalPaisa, now: this.clock(), lock: false })
      : null;
    return {
      subtotal: fromPaisa(subtotalPaisa),
      discount: discount ? { code: discount.code, amount: fromPaisa(discount.amountPaisa) } : null,
      totalPrice: fromPaisa(subtotalPaisa - (discount?.amountPaisa ?? 0)),
    };
  }
}
