import { formatRupees } from "../shared/money.shared";
import type { ConfirmationTextKind } from "./order-confirmation.shared";
import { shortOrderId } from "../orders/order-values.shared";
import type { MessageLanguage } from "../orders/order-values.shared";

/**
 * Every word of an order's confirmation, in both languages, in one place (docs/recipes.md, "A
 * language"): the texts sent by WhatsApp and SMS (confirmation, reminder, cancellation) and the
 * confirmation link's page. Urdu is written as a Pakistani shop writes to its customers, in Urdu
 * script, with the amount as "Rs." and the order number in Latin digits as the pages show them.
 * Plain data and functions: the page's bundle reads it too.
 */

/** What a text says of its order. */
export type TextOrder = {
  id: string;
  customerName: string;
  totalPrice: number;
  storeName: string;
  /** The confirmation page's absolute address, PUBLIC_URL + /c/{token}. */
  link: string;
};

/** Why the store wrote the cancellation: the customer's answer, or no answer in time. */
export type CancellationCause = "customer" | "not-confirmed";

const orderNumber = (order: TextOrder) => `#${shortOrderId(order.id)}`;

const TEXTS: Record<
  MessageLanguage,
  {
    confirmation(order: TextOrder): string;
    reminder(order: TextOrder): string;
    cancellation(order: TextOrder, cause: CancellationCause): string;
  }
> = {
  en: {
    confirmation: (order) =>
      `Assalam-o-Alaikum ${order.customerName}! ${order.storeName} has received your order ${orderNumber(order)} ` +
      `of ${formatRupees(order.totalPrice)}, cash on delivery. Please confirm it so that we can send it: ` +
      `reply 1 to confirm or 2 to cancel, or open ${order.link}`,
    reminder: (order) =>
      `${order.customerName}, your ${order.storeName} order ${orderNumber(order)} of ${formatRupees(order.totalPrice)} ` +
      `is still waiting for your confirmation. Reply 1 to confirm or 2 to cancel, or open ${order.link}. ` +
      `Orders that are not confirmed are cancelled.`,
    cancellation: (order, cause) =>
      cause === "customer"
        ? `Your ${order.storeName} order ${orderNumber(order)} of ${formatRupees(order.totalPrice)} has been cancelled as you asked. ` +
          `We hope to serve you again.`
        : `Your ${order.storeName} order ${orderNumber(order)} of ${formatRupees(order.totalPrice)} has been cancelled ` +
          `because it was not confirmed. If you still want it, you are welcome to order again.`,
  },
  ur: {
    confirmation: (order) =>
      `السلام علیکم ${order.customerName}! ${order.storeName} پر آپ کا آرڈر ${orderNumber(order)} ` +
      `(${formatRupees(order.totalPrice)}، کیش آن ڈیلیوری) ہمیں موصول ہو گیا ہے۔ ` +
      `آرڈر بھجوانے سے پہلے تصدیق ضروری ہے: تصدیق کے لیے 1 اور منسوخی کے لیے 2 لکھ کر جواب دیں، ` +
      `یا یہ لنک کھولیں: ${order.link}`,
    reminder: (order) =>
      `${order.customerName} صاحب/صاحبہ، ${order.storeName} پر آپ کا آرڈر ${orderNumber(order)} ` +
      `(${formatRupees(order.totalPrice)}) ابھی تک تصدیق کا منتظر ہے۔ ` +
      `تصدیق کے لیے 1 اور منسوخی کے لیے 2 لکھ کر جواب دیں، یا یہ لنک کھولیں: ${order.link} ` +
      `تصدیق نہ ہونے کی صورت میں آرڈر منسوخ کر دیا جائے گا۔`,
    cancellation: (order, cause) =>
      cause === "customer"
        ? `آپ کی درخواست پر ${order.storeName} کا آرڈر ${orderNumber(order)} (${formatRupees(order.totalPrice)}) ` +
          `منسوخ کر دیا گیا ہے۔ امید ہے آپ دوبارہ خدمت کا موقع دیں گے۔`
        : `${order.storeName} کا آرڈر ${orderNumber(order)} (${formatRupees(order.totalPrice)}) تصدیق نہ ہونے کی وجہ سے ` +
          `منسوخ کر دیا گیا ہے۔ اگر آپ اب بھی یہ آرڈر چاہتے ہیں تو بلا جھجک دوبارہ آرڈر کریں۔`,
  },
};

/** The text of an order's message of this kind, in this language. */
export function orderText(
  language: MessageLanguage,
  kind: ConfirmationTextKind,
  order: TextOrder,
  cause: CancellationCause = "not-confirmed",
): string {
  const texts = TEXTS[language];
  if (kind === "cancellation") return texts.cancellation(order, cause);
  return texts[kind](order);
}

/**
 * The WhatsApp template's body parameters, in the order the approved templates use them:
 * {{1}} the customer's name, {{2}} the order number, {{3}} the amount, {{4}} the link.
 * The templates' words, for registering them with Meta, are the confirmation texts above.
 */
export function templateParameters(order: TextOrder): string[] {
  return [order.customerName, orderNumber(order), formatRupees(order.totalPrice), order.link];
}

/** The confirmation page's words (app/orders/confirm-order.tsx). */
export const CONFIRMATION_PAGE = {
  en: {
    title: "Confirm your order",
    intro: "Please confirm your cash-on-delivery order so that we can send it.",
    order: "Order",
    items: "Items",
    quantity: "Qty",
    total: "Total",
    phone: (lastFour: string) => `Phone number ending in ${lastFour}`,
    confirm: "Confirm order",
    cancel: "Cancel order",
    confirmed: "Thank you! Your order is confirmed and will be on its way soon.",
    cancelled: "Your order has been cancelled. Nothing more will be sent.",
    closed: "This link no longer works: the order has been sent or cancelled.",
    notFound: "This confirmation link is not valid. Please check the link in your message.",
  },
  ur: {
    title: "اپنے آرڈر کی تصدیق کریں",
    intro: "کیش آن ڈیلیوری آرڈر بھجوانے سے پہلے براہِ کرم اس کی تصدیق کر دیں۔",
    order: "آرڈر",
    items: "اشیاء",
    quantity: "تعداد",
    total: "کل رقم",
    phone: (lastFour: string) => `فون نمبر جس کے آخری ہندسے ${lastFour} ہیں`,
    confirm: "آرڈر کی تصدیق کریں",
    cancel: "آرڈر منسوخ کریں",
    confirmed: "شکریہ! آپ کے آرڈر کی تصدیق ہو گئی ہے، جلد ہی آپ کو بھجوا دیا جائے گا۔",
    cancelled: "آپ کا آرڈر منسوخ کر دیا گیا ہے۔",
    closed: "یہ لنک اب کام نہیں کرتا: آرڈر بھجوایا جا چکا ہے یا منسوخ ہو چکا ہے۔",
    notFound: "یہ تصدیقی لنک درست نہیں۔ براہِ کرم اپنے پیغام میں موجود لنک دوبارہ دیکھیں۔",
  },
} as const;

/** Checkout's choice of the messages' language, each in its own script. */
export const LANGUAGE_CHOICE = { label: "Messages in", ur: "اردو", en: "English" } as const;
