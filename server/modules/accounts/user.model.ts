import { BaseModel } from "../../db/base.model";
import { countryOrDefault } from "../shared/address.shared";
import { addressShape } from "../shared/address.shape";
import type { QueryBuilder } from "objection";
import { dateTime, described, email, nullable, object, oneOf, text, uuid, type ShapeOf } from "../shared/shapes";
import { pendingEmailSql } from "./email-change.model";

export const ROLES = ["customer", "admin"] as const;
export type Role = (typeof ROLES)[number];

export type { Address } from "../shared/address.shared";

/** A user as clients may see it (docs/product.md, "Users"): never the password hash. */
export const publicUserShape = object({
  _id: uuid(),
  name: text(),
  email: email(),
  phone: text(),
  address: addressShape,
  role: oneOf(ROLES),
  createdAt: dateTime(),
  pendingEmail: described(
    nullable(email()),
    "The address the email changes to once the link mailed there is opened (null when no change waits); `email` stays the account's address until then",
  ),
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
  /** Made by the demo seed and not yet shown to hold another password than the seed's (accounts.service.ts, demoLogins). */
  passwordFromSeed!: boolean;
  phone!: string;
  street!: string;
  city!: string;
  state!: string;
  zipCode!: string;
  country!: string;
  createdAt!: Date;
  updatedAt!: Date;
  /** Read only with the modifier withPendingEmail (not a column). */
  pendingEmail?: string | null;

  static modifiers = {
    /** Every column, and the address a pending email change waits for (a public user shows it). */
    withPendingEmail(query: QueryBuilder<User>) {
      query.select("users.*", User.raw(`${pendingEmailSql("users")} AS pending_email`));
    },
  };

  toPublic(): PublicUser {
    return publicUserOf(this);
  }
}

/** The columns a public user is made of (what the token lookup reads, without a model). */
export type PublicUserRow = Pick<
  User,
  | "id"
  | "name"
  | "email"
  | "phone"
  | "street"
  | "city"
  | "state"
  | "zipCode"
  | "country"
  | "role"
  | "createdAt"
  | "pendingEmail"
>;

export function publicUserOf(row: PublicUserRow): PublicUser {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: {
      street: row.street,
      city: row.city,
      state: row.state,
      zipCode: row.zipCode,
      country: countryOrDefault(row.country),
    },
    role: row.role,
    createdAt: new Date(row.createdAt).toISOString(),
    pendingEmail: row.pendingEmail ?? null,
  };
}
