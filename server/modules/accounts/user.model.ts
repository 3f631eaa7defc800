import { BaseModel } from "../../db/base.model";

export type Role = "customer" | "admin";
export const ROLES: Role[] = ["customer", "admin"];

export type Address = { street: string; city: string; state: string; zipCode: string; country: string };

/** A user as clients may see it (API.md "User"): never the password hash. */
export type PublicUser = {
  _id: string;
  name: string;
  email: string;
  phone: string;
  address: Address;
  role: Role;
  createdAt: string;
};

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
        country: this.country || "Pakistan",
      },
      role: this.role,
      createdAt: new Date(this.createdAt).toISOString(),
    };
  }
}
