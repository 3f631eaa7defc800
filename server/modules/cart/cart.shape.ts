import { productImagesShape } from "../shared/product-images.shape";
import {
  arrayOf,
  dateTime,
  described,
  integer,
  nullable,
  number,
  object,
  text,
  uuid,
  type ShapeOf,
} from "../shared/shapes";

/** A line of a cart, with the product as it is now (its current price and stock). */
export const cartLineShape = object({
  product: object({
    _id: uuid(),
    name: text(),
    price: number({ minimum: 0 }),
    imageUrl: text(),
    images: productImagesShape,
    stock: integer({ minimum: 0 }),
  }),
  quantity: integer({ minimum: 1 }),
});
export type CartLine = ShapeOf<typeof cartLineShape>;

/** A shopper's cart; one that was never used has no id and no times yet. */
export const cartShape = object({
  _id: nullable(uuid()),
  user: uuid(),
  items: arrayOf(cartLineShape),
  createdAt: nullable(dateTime()),
  updatedAt: nullable(dateTime()),
});
export type PublicCart = ShapeOf<typeof cartShape>;

export const cartWithTotalShape = object({
  cart: cartShape,
  total: described(number({ minimum: 0 }), "Sum of current price × quantity, in rupees"),
});
export type CartWithTotal = ShapeOf<typeof cartWithTotalShape>;
