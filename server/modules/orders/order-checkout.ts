import type { PaymentMethodName } from "../../providers/payment-methods/payment-methods.shared";
import type { StatementPart } from "../shared/statement";
import type { ProductImage } from "../shared/product-images.shared";
import type { MessageLanguage } from "./order-values.shared";

/**
 * The orders module's parts of checkout's two statements (server/flows/checkout.ts): the order
 * an Idempotency-Key already made, read with the locks; the order and its items, written with
 * the other modules' writes.
 */

/**
 * The id of the order the customer already placed with this key (null: none, or no key), as an
 * expression of the locking read, where `customer` names the part whose `id` is the customer's.
 */
export function earlierOrderExpression(customer: string, idempotencyKey: string) {
  return {
    sql: `(SELECT orders.id FROM orders
            WHERE :idempotencyKey <> '' AND orders.user_id = ${customer}.id AND orders.idempotency_key = :idempotencyKey)`,
    bindings: { idempotencyKey },
  };
}

/** A new order as checkout writes it: everything copied now, from the customer, the cart and its products. */
export type NewOrder = {
  id: string;
  userId: string;
  customerName: string;
  customerEmail: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  phone: string | null;
  totalPrice: number;
  paymentMethod: PaymentMethodName;
  /** on-delivery for cash on delivery, awaiting for a method paid in advance. */
  paymentStatus: "on-delivery" | "awaiting";
  /** What the discount for paying in advance took off. */
  paymentDiscount: number;
  idempotencyKey: string | null;
  discountCodeId: string | null;
  discountCode: string | null;
  discountAmount: number;
  /** The language of its messages and confirmation page. */
  language: MessageLanguage;
  /** The SHA-256 of its confirmation token (order-confirmation.ts). */
  confirmationTokenHash: string;
};

/** An order line: a copy of the product as sold (name, image, photo, unit price). */
export type NewOrderItem = {
  productId: string;
  name: string;
  imageUrl: string;
  /** The photo sold, if the product had one: referenced so that its files stay while the order shows them. */
  photoId: string | null;
  images: ProductImage[];
  quantity: number;
  unitPrice: number;
  position: number;
};

/**
 * The order (`placed`, which answers its `created_at` and `updated_at` as the database set them)
 * and its items (`items`), for one statement. Data-modifying WITH queries run together, and the
 * items' reference to the new order is checked at the end of the statement (PostgreSQL manual,
 * "Data-Modifying Statements in WITH").
 */
export function orderPlacedParts(order: NewOrder, items: NewOrderItem[]): StatementPart[] {
  return [
    {
      name: "placed",
      sql: `INSERT INTO orders (id, user_id, customer_name, customer_email, street, city, state, zip_code, country,
                                phone, total_price, status, payment_method, payment_status, payment_discount, idempotency_key,
                                discount_code_id, discount_code, discount_amount, language, confirmation_token_hash)
            VALUES (:orderId, :userId, :customerName, :customerEmail, :street, :city, :state, :zipCode, :country,
                    :phone, :totalPrice, 'Pending', :paymentMethod, :paymentStatus, :paymentDiscount, :idempotencyKey,
                    :discountCodeId, :discountCode, :discountAmount, :language, :confirmationTokenHash)
            RETURNING created_at, updated_at`,
      bindings: {
        orderId: order.id,
        userId: order.userId,
        customerName: order.customerName,
        customerEmail: order.customerEmail,
        street: order.street,
        city: order.city,
        state: order.state,
        zipCode: order.zipCode,
        country: order.country,
        phone: order.phone,
        totalPrice: order.totalPrice,
        paymentMethod: order.paymentMethod,
        paymentStatus: order.paymentStatus,
        paymentDiscount: order.paymentDiscount,
        idempotencyKey: order.idempotencyKey,
        discountCodeId: order.discountCodeId,
        discountCode: order.discountCode,
        discountAmount: order.discountAmount,
        language: order.language,
        confirmationTokenHash: order.confirmationTokenHash,
      },
    },
    {
      name: "items",
      sql: `INSERT INTO order_items (order_id, product_id, product_name, product_image_url, photo_id, product_images,
                                     quantity, unit_price, position)
            SELECT :orderId, line.product_id, line.name, line.image_url, line.photo_id, line.images, line.quantity,
                   line.unit_price, line.position
              FROM jsonb_to_recordset(:orderItems::jsonb) AS line(product_id uuid, name text, image_url text,
                                                                  photo_id uuid, images jsonb, quantity int,
                                                                  unit_price numeric, position int)`,
      bindings: {
        orderId: order.id,
        orderItems: JSON.stringify(
          items.map((item) => ({
            product_id: item.productId,
            name: item.name,
            image_url: item.imageUrl,
            photo_id: item.photoId,
            images: item.images,
            quantity: item.quantity,
            unit_price: item.unitPrice,
            position: item.position,
          })),
        ),
      },
    },
  ];
}
