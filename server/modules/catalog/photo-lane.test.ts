import { describe, expect, it } from "vitest";
import { BusyError, statusOf, retryAfterOf } from "../shared/errors.shared";
import { PHOTO_LANE_FULL, PhotoLane } from "./photo-lane";

/** Work the test finishes when it chooses: a slow photo, without a clock. */
function slowWork() {
  let finish: (value: string) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  let started = false;
  return {
    work: () => {
      started = true;
      return done;
    },
    started: () => started,
    finish: (value: string) => finish(value),
    fail: (error: Error) => fail(error),
  };
}

describe("the photo lane", () => {
  it("works one photo at a time, in the order they came", async () => {
    const lane = new PhotoLane({ maxWaiting: 2 });
    const [first, second, third] = [slowWork(), slowWork(), slowWork()];
    const results = [lane.run(first.work), lane.run(second.work), lane.run(third.work)];
    expect([first.started(), second.started(), third.started()]).toEqual([true, false, false]);
    expect(lane.stats()).toEqual({ running: true, waiting: 2, started: 1 });
    first.fail(new Error("a corrupt photo"));
    await expect(results[0]).rejects.toThrow("a corrupt photo");
    // A failed photo frees the lane like a finished one.
    expect([second.started(), third.started()]).toEqual([true, false]);
    second.finish("two");
    await expect(results[1]).resolves.toBe("two");
    expect(third.started()).toBe(true);
    third.finish("three");
    await expect(results[2]).resolves.toBe("three");
    expect(lane.stats()).toEqual({ running: false, waiting: 0, started: 3 });
  });

  it("refuses at once, with a 503 said beside the photo, when as many as it keeps are waiting", async () => {
    const lane = new PhotoLane({ maxWaiting: 1 });
    const [atWork, waiting, refused] = [slowWork(), slowWork(), slowWork()];
    const results = [lane.run(atWork.work), lane.run(waiting.work)];
    const refusal = await lane.run(refused.work).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BusyError);
    expect(statusOf(refusal)).toBe(503);
    expect(retryAfterOf(refusal)).toBeGreaterThan(0);
    expect((refusal as BusyError).errors).toEqual([{ field: "image", message: PHOTO_LANE_FULL }]);
    expect(refused.started()).toBe(false);
    // Once one is done there is room again.
    atWork.finish("done");
    await results[0];
    const later = slowWork();
    const taken = lane.run(later.work);
    waiting.finish("done");
    await results[1];
    later.finish("taken");
    await expect(taken).resolves.toBe("taken");
  });

  it("with no room to wait, still works one photo when it is free", async () => {
    const lane = new PhotoLane({ maxWaiting: 0 });
    const only = slowWork();
    const result = lane.run(only.work);
    await expect(lane.run(slowWork().work)).rejects.toBeInstanceOf(BusyError);
    only.finish("alone");
    await expect(result).resolves.toBe("alone");
  });
});
