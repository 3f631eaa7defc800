import { data } from "react-router";

/**
 * A loader's lookup of one thing by id: when the service says it does not exist ("Product not
 * found", "Order not found"), the page answers 404 with that message; other errors go on.
 */
export async function foundOr404<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    const refusal = error as { kind?: string; message?: string };
    if (refusal?.kind === "NotFound") throw data(refusal.message || "Not found", { status: 404 });
    throw error;
  }
}
