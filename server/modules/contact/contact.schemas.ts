import * as yup from "yup";
import { pageParam } from "../shared/list-query";
import { CONTACT_LIMITS } from "./contact-values.shared";

const requiredText = (label: string, max: number) =>
  yup.string().trim().required(`${label} is required`).max(max, `${label} must be at most ${max} characters`);

/** The contact form (name, email, subject, message, all required: docs/product.md, "Contact and content"). */
export const contactMessageSchema = yup.object({
  name: requiredText("Name", CONTACT_LIMITS.name),
  email: requiredText("Email", CONTACT_LIMITS.email).lowercase().email("Please enter a valid email address"),
  subject: requiredText("Subject", CONTACT_LIMITS.subject),
  message: requiredText("Message", CONTACT_LIMITS.message),
});

export type ContactMessageInput = yup.InferType<typeof contactMessageSchema>;

/** The admin's list of messages: 50 a page, as the user list (docs/product.md, "Limits"). */
export const MESSAGES_PER_PAGE = 50;

export const contactMessageListQuerySchema = yup.object({ page: pageParam() });
