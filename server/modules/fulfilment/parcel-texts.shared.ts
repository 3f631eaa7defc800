import { shortOrderId } from "../orders/order-values.shared";
import type { MessageLanguage } from "../orders/order-values.shared";
import { textName } from "../shared/text-name.shared";

/**
 * Every word of the text about a delivery attempt (the courier tried and could not: its reason),
 * in both languages, beside the confirmation's and the payments' (confirmation-texts.shared.ts,
 * written the same way). Sent while the order is Shipped, with the mail that says the same
 * (order-mails.ts, deliveryAttemptMail). Plain data and functions.
 */

/** What the text says: the order, its courier and tracking number, and the courier's reason. */
export type AttemptTextOrder = {
  id: string;
  customerName: string;
  storeName: string;
  courier: string;
  trackingNumber: string;
  reason: string;
  /** The customer's order page, PUBLIC_URL + /my-orders/{id}, where its timeline is. */
  link: string;
};

const orderNumber = (order: AttemptTextOrder) => `#${shortOrderId(order.id)}`;

const TEXTS: Record<MessageLanguage, (order: AttemptTextOrder) => string> = {
  en: (order) =>
    `${order.customerName}, ${order.courier} tried to deliver your ${order.storeName} order ${orderNumber(order)} ` +
    `(tracking number ${order.trackingNumber}) but could not: ${order.reason}. The courier will try again; ` +
    `please keep your phone on and the cash ready. ${order.link}`,
  ur: (order) =>
    `${order.customerName} صاحب/صاحبہ، ${order.courier} نے ${order.storeName} کا آپ کا آرڈر ${orderNumber(order)} ` +
    `(ٹریکنگ نمبر ${order.trackingNumber}) پہنچانے کی کوشش کی مگر نہیں پہنچا سکا: ${order.reason}۔ ` +
    `کوریئر دوبارہ کوشش کرے گا، براہِ کرم اپنا فون آن اور رقم تیار رکھیں۔ ${order.link}`,
};

/** The text of a delivery attempt, in this language. */
export function attemptText(language: MessageLanguage, order: AttemptTextOrder): string {
  return TEXTS[language]({ ...order, customerName: textName(order.customerName, language) });
}

/**
 * The WhatsApp template's body parameters (docs/operations.md, WHATSAPP_TEMPLATE_DELIVERY_ATTEMPT): {{1}}
 * the customer's name (textName, in the template's language), {{2}} the order number, {{3}} the
 * courier, {{4}} its reason, {{5}} the tracking number, {{6}} the order's page.
 */
export function attemptTemplateParameters(language: MessageLanguage, order: AttemptTextOrder): string[] {
  return [
    textName(order.customerName, language),
    orderNumber(order),
    order.courier,
    order.reason,
    order.trackingNumber,
    order.link,
  ];
}
