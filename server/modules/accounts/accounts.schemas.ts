import * as yup from "yup";
import { DEFAULT_COUNTRY } from "../shared/address.shared";
import { emptyToUndefined, limitParam, pageParam } from "../shared/list-query";
import { EMAIL_CHANGE_LINK_INVALID } from "./accounts-values.shared";
import { PUBLISHED_PASSWORD_REFUSED, PUBLISHED_PASSWORDS } from "./demo-passwords";
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from "./passwords";
import { ROLES } from "./user.model";

/**
 * One schema per input, shared by the pages and the API. The messages are the store's own
 * (docs/product.md, "Accounts") and are shown to people as they are.
 */
const email = (message: string) =>
  yup
    .string()
    .trim()
    .lowercase()
    .required("Email is required")
    .max(254, "Email must be at most 254 characters")
    .email(message);

/** A password being chosen: never one of the demo store's, which are published (demo-passwords.ts). */
const newPassword = (minMessage: string) =>
  yup
    .string()
    .required("Password is required")
    .min(PASSWORD_MIN_LENGTH, minMessage)
    .notOneOf([...PUBLISHED_PASSWORDS], PUBLISHED_PASSWORD_REFUSED)
    .test(
      "bcrypt-bytes",
      `Password must be at most ${PASSWORD_MAX_BYTES} bytes long`,
      (value) => !value || Buffer.byteLength(value, "utf8") <= PASSWORD_MAX_BYTES,
    );

const name = yup.string().trim().required("Name is required").max(100, "Name must be at most 100 characters");

export const registerSchema = yup.object({
  name,
  email: email("Please enter a valid email address"),
  password: newPassword("Password must be at least 8 characters long"),
});

export const loginSchema = yup.object({
  email: yup.string().trim().lowercase().required("Email is required").max(254, "Email must be at most 254 characters"),
  password: yup.string().required("Password is required").max(1024, "Password is too long"),
});

const optionalText = (max: number, label: string) =>
  yup.string().trim().max(max, `${label} must be at most ${max} characters`).default("");

export const profileSchema = yup.object({
  name,
  email: email("Please enter a valid email address"),
  phone: yup
    .string()
    .trim()
    .max(30, "Phone must be at most 30 characters")
    .matches(/^[+\d\s()-]*$/, "Phone may contain digits, spaces, +, - and brackets only")
    .default(""),
  address: yup
    .object({
      street: optionalText(200, "Street"),
      city: optionalText(100, "City"),
      state: optionalText(100, "State"),
      zipCode: optionalText(20, "ZIP code"),
      country: yup.string().trim().max(100, "Country must be at most 100 characters").default(DEFAULT_COUNTRY),
    })
    .default({}),
  // Asked only when `email` differs from the account's (the server decides); ignored otherwise.
  currentPassword: yup.string().max(1024, "Password is too long").default("").meta({
    description:
      "Required with an email other than the account's (missing or wrong: 400 on this field, nothing saved); not needed otherwise",
  }),
});

/** The link mailed to a new address: its token (the page's button posts it back). */
export const confirmEmailChangeSchema = yup.object({
  token: yup.string().trim().required(EMAIL_CHANGE_LINK_INVALID).max(200, EMAIL_CHANGE_LINK_INVALID),
});

export const changePasswordSchema = yup.object({
  currentPassword: yup.string().required("Current password is required").max(1024, "Password is too long"),
  newPassword: newPassword("Password must be at least 8 characters long"),
});

export const createAdminSchema = yup.object({
  name: yup
    .string()
    .trim()
    .required("Name must be at least 2 characters")
    .min(2, "Name must be at least 2 characters")
    .max(100, "Name must be at most 100 characters"),
  email: yup
    .string()
    .trim()
    .lowercase()
    .required("Valid email is required")
    .max(254, "Valid email is required")
    .email("Valid email is required"),
  password: newPassword("Password must be at least 8 characters"),
});

export const roleSchema = yup.object({
  role: yup
    .string()
    .required("Role is required")
    .oneOf([...ROLES], "Role must be customer or admin"),
});

export const userListQuerySchema = yup.object({
  page: pageParam(),
  limit: limitParam(50),
  search: yup.string().trim().max(100, "Search must be at most 100 characters").default(""),
  role: yup
    .string()
    .transform(emptyToUndefined)
    .oneOf([...ROLES, undefined], "Role must be customer or admin"),
});

/** "Forgot your password?": the address to send a link to (never said whether it has an account). */
export const forgotPasswordSchema = yup.object({
  email: email("Please enter a valid email address"),
});

/** The reset link's token and the new password (the page also asks for it twice: app/lib/page-rules.ts). */
export const resetPasswordSchema = yup.object({
  token: yup
    .string()
    .trim()
    .required("This reset link is invalid or has expired")
    .max(200, "This reset link is invalid or has expired"),
  password: newPassword("Password must be at least 8 characters long"),
});

/** An admin sends a reset link to one user (/admin/users). */
export const sendResetLinkSchema = yup.object({
  userId: yup.string().trim().required("User not found").max(100, "User not found"),
});
