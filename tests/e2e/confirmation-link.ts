import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect } from "./fixtures";
import { ADDRESS, addToCart, productsInStock, registerCustomer } from "./store-api";
import { thisWorkersStore } from "./worker-store";

/**
 * The journeys' way to an order's confirmation link: the journeys' server has no WhatsApp or
 * SMS, so each confirmation text is a file under its DATA_DIR (docs/product.md, "Confirming an order"),
 * the worker's own store's (tests/e2e/worker-store.ts).
 */
const MESSAGES_DIR = thisWorkersStore().messagesDir;

let numbers = 0;

/**
 * Places an order with a phone in this language, through the API, and answers its id. Each order
 * has a number of its own, ending in 4567: a number is sent at most 3 confirmation requests a day
 * (docs/product.md, "Confirming an order"), and the worker's store lives through many journeys.
 */
export async function placedOrder(request: APIRequestContext, language: "ur" | "en"): Promise<string> {
  numbers += 1;
  const customer = await registerCustomer(request, `confirm-${language}`);
  const [product] = await productsInStock(request, 3);
  await addToCart(request, customer, product!._id);
  const placed = await request.post("/api/v1/orders", {
    headers: { authorization: `Bearer ${customer.token}` },
    data: { address: ADDRESS, phone: `0311-${String(numbers).padStart(3, "0")}4567`, language },
  });
  expect(placed.status()).toBe(201);
  return (await placed.json()).data._id;
}

/** The confirmation link in the order's text file (written by the send job within a moment). */
export async function confirmationLink(orderId: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const files = fs.existsSync(MESSAGES_DIR) ? fs.readdirSync(MESSAGES_DIR) : [];
    const file = files.find((name) => name.endsWith(`confirmation-${orderId.slice(-8)}.txt`));
    if (file) {
      const link = /https?:\/\/\S+\/c\/[A-Za-z0-9_-]{43}/.exec(fs.readFileSync(path.join(MESSAGES_DIR, file), "utf8"));
      if (link) return new URL(link[0]).pathname;
    }
    if (Date.now() > deadline) throw new Error(`No confirmation text for order ${orderId}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
