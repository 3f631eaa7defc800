import { describe, expect, it } from "vitest";
import { NotFoundError, ServiceUnavailableError } from "../modules/shared/errors.shared";
import { servicesForPages } from "./page-errors";

class FakeCatalog {
  #calls = 0;
  async list(): Promise<string[]> {
    this.#calls++;
    throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  }
  async find(): Promise<string> {
    throw new NotFoundError("Product not found");
  }
  busy(): never {
    throw new ServiceUnavailableError();
  }
  async ok(): Promise<number> {
    return ++this.#calls;
  }
  label = "catalog";
}

async function thrown(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("the services as the pages see them", () => {
  const services = servicesForPages({ catalog: new FakeCatalog(), name: "store" });

  it("turn database unavailability into a 503 Response (React Router's error screen with that status)", async () => {
    const error = await thrown(() => services.catalog.list());
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(503);
    expect((error as Response).headers.get("Retry-After")).toBe("5");
    const sync = await thrown(() => services.catalog.busy());
    expect((sync as Response).status).toBe(503);
  });

  it("let a domain error through for the forms, and leave everything else as it was", async () => {
    expect(await thrown(() => services.catalog.find())).toBeInstanceOf(NotFoundError);
    // Methods keep their own object (private fields work) and values pass through.
    expect(await services.catalog.ok()).toBe(2);
    expect(services.catalog.label).toBe("catalog");
    expect(services.name).toBe("store");
    expect(services.catalog).toBe(services.catalog);
  });
});
