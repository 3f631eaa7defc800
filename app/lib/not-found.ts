import { data } from "react-router";
import { NotFoundError, statusOf } from "../../server/modules/shared/errors.shared";

/**
 * A loader's lookup of one thing by id: when the service says it does not exist ("Product not
 * found", "Order not found"), the page answers 404 with that message; other errors go on.
 * (React Router shows a thrown error's own message only when it is a Response.)
 */
export async function foundOr404<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundError) throw data(error.message, { status: statusOf(error) });
    throw error;
  }
}
