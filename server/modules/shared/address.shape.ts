import { object, text, type Shape } from "./shapes";
import type { Address } from "./address.shared";

/** An address as clients read it, on a user's profile and on an order. */
export const addressShape: Shape<Address> = object({
  street: text(),
  city: text(),
  state: text(),
  zipCode: text(),
  country: text(),
});
