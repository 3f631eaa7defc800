import * as yup from "yup";
import { emptyToUndefined, pageParam } from "../shared/list-query";
import { OUTBOX_STATES } from "./outbox-values.shared";

/** The admin outbox: a page and, optionally, one state. */
export const outboxListQuerySchema = yup.object({
  page: pageParam(),
  state: yup
    .string()
    .transform(emptyToUndefined)
    .oneOf([...OUTBOX_STATES, undefined], "State must be queued, sent or failed"),
});

export const outboxRetrySchema = yup.object({
  messageId: yup.string().trim().required("Message is required").max(100, "Message not found"),
});
