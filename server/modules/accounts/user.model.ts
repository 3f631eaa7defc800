import { BaseModel } from "../../db/base.model";
import { addressShape, countryOrDefault } from "../shared/address";
import { dateTime, email, object, oneOf, text, uuid, type ShapeOf } from "../shared/shapes";

export const ROLES = ["customer", "admin"] as const;
export type Role = (typeof ROLES)[number];

export type { Address } from "../shared/address";

/** A user as clients may see it (docs/product.md, "Users"): never the password hash. */
export const publicUserShape = object({
  _id: uuid(),
  name: text(),
  email: email(),
  phone: text(),
  address: addressShape,
  role: oneOf(ROLES),
  createdAt: dateTime(),
});
export type PublicUser = ShapeOf<typeof publicUserShape>;

export class User extends BaseModel {
  static tableName = "users";

  id!: string;
  name!: string;
  email!: string;
  passwordHash!: string;
  /** Bumped by a password change; sessions and tokens made before it stop working. */
  credentialsVersion!: number;
  role!: Role;
  phone!: string;
  street!: string;
  city!: string;
  state!: string;
  zipCode!: string;
  country!: string;
  createdAt!: Date;
  updatedAt!: Date;

  toPublic(): PublicUser {
    return {
      _id: this.id,
      name: this.name,
      email: this.email,
      phone: this.phone,
      address: {
        street: this.street,
        city: this.city,
        state: this.state,
        zipCode: this.zipCode,
        country: countryOrDefault(this.country),
      },
      role: this.role,
      createdAt: new Date(this.createdAt).toISOString(),
    };
  }
}
