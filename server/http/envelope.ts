import type { FieldError } from "../modules/shared/errors.shared";
import type { paginationShape } from "../modules/shared/list-query";
import { COD_REFUSAL_CODES } from "../modules/confirmation/order-rules.shared";
import { LIFE_REFUSAL_CODES } from "../modules/order-life/order-life-refusals.shared";
import { arrayOf, constant, object, oneOf, optional, text, type Shape, type ShapeOf } from "../modules/shared/shapes";

/**
 * The API's envelope (docs/api.md, "The envelope"), written once: ok() and failure() answer the
 * types of these shapes, and the OpenAPI document prints their schemas (server/http/openapi.ts),
 * so what a client is told and what it gets cannot drift apart.
 */

/** What a success may carry beside `data`: a list's place in the whole list, and figures about the list. */
export type EnvelopeExtras = {
  pagination?: typeof paginationShape;
  meta?: Shape<unknown>;
  /** The catalogue's counts by filter option, only when asked for (`optional`: docs/api.md, "Filters"). */
  facets?: Shape<unknown>;
};

const successMembers = {
  success: constant(true),
  message: text({ description: "What happened, in words a shopper understands" }),
};

/** A success's shape: `data` of the call's shape, and the extras it declares, nothing else. */
export function successEnvelopeShape<D, E extends EnvelopeExtras>(
  data: Shape<D>,
  extras: E,
): Shape<SuccessEnvelope<D, E>> {
  const members: Record<string, Shape<unknown>> = { ...successMembers, data };
  for (const [name, shape] of Object.entries(extras)) if (shape) members[name] = shape;
  return object(members) as Shape<SuccessEnvelope<D, E>>;
}

type SuccessMembers = { [K in keyof typeof successMembers]: ShapeOf<(typeof successMembers)[K]> };
export type SuccessEnvelope<D, E extends EnvelopeExtras = Record<never, never>> = SuccessMembers & { data: D } & {
  [K in keyof E as E[K] extends { readonly optional: true } ? never : K]: ShapeOf<E[K]>;
} & { [K in keyof E as E[K] extends { readonly optional: true } ? K : never]?: ShapeOf<E[K]> };

export const fieldErrorShape: Shape<FieldError> = object({
  field: text({ description: "The input's field, as named in the request (e.g. address.city)" }),
  message: text({ description: "What is wrong with it" }),
});

export const errorEnvelopeShape = object({
  success: constant(false),
  message: text({ description: "Why, in words a shopper understands: for invalid input, the first problem" }),
  errors: optional(
    arrayOf(fieldErrorShape, { minItems: 1, description: "Only for invalid input: each problem by field" }),
  ),
  code: optional(
    oneOf([...COD_REFUSAL_CODES, ...LIFE_REFUSAL_CODES], {
      description:
        "Only on a 409 a client may branch on. A cash-on-delivery rule refused an order: COD_BLOCKED (the phone or email is blocked, or the phone had too many parcels returned to sender), COD_LIMIT (over the amount allowed on cash on delivery), COD_OPEN_ORDERS (too many open cash-on-delivery orders). The order's life refused the change in its present state (the message says why): e.g. HANDED_TO_COURIER (a customer's cancel of an order already booked with a courier: contact the store), TOO_LATE, NOT_PENDING, PAYMENT_NOT_VERIFIED, COURIER_REFUSED (the courier refused to cancel its parcel: nothing changed)",
    }),
  ),
});
export type ErrorEnvelope = ShapeOf<typeof errorEnvelopeShape>;

export function ok<D, X extends { pagination?: unknown; meta?: unknown }>(
  data: D,
  message: string,
  extras: X,
): { success: true; message: string; data: D } & X {
  return { success: true, message, data, ...extras };
}

export function failure(message: string, errors?: FieldError[], code?: ErrorEnvelope["code"]): ErrorEnvelope {
  return {
    success: false,
    message,
    ...(errors && errors.length > 0 ? { errors } : {}),
    ...(code ? { code } : {}),
  };
}
