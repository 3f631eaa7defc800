import { BusyError } from "../shared/errors.shared";
import { PHOTO_FIELD } from "./photo-values.shared";

/** What the lane says when it is full, beside the photo's field (the API says its 503 envelope). */
export const PHOTO_LANE_FULL = "Too many photos are being processed right now: please send yours again in a minute";

/** Photos that may wait for the lane in each process unless PHOTO_QUEUE_MAX says otherwise. */
export const PHOTO_QUEUE_MAX_DEFAULT = 4;

/**
 * The one photo lane of a process (docs/decisions/2026-11-23-product-photos.md,
 * docs/decisions/2026-11-29-uploads-authorised-first.md): photos are decoded and encoded one at
 * a time, since a 40-megapixel decode takes a few hundred MB and encoding keeps both cores busy
 * for a second or two. At most `maxWaiting` uploads wait behind the one at work, each holding up
 * to 30 MB of bytes; one more is refused at once (a BusyError: 503 with Retry-After) rather than
 * kept waiting for minutes while its bytes fill the memory.
 */
export class PhotoLane {
  private running = false;
  private readonly waiting: (() => void)[] = [];
  private started = 0;

  constructor(private readonly options: { maxWaiting: number }) {}

  /** Runs `work` when the lane is free, after those waiting; refused when `maxWaiting` already wait. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running && this.waiting.length >= this.options.maxWaiting) {
      return Promise.reject(new BusyError([{ field: PHOTO_FIELD, message: PHOTO_LANE_FULL }]));
    }
    return new Promise<T>((resolve, reject) => {
      // The next photo starts before this one's caller hears of it: the lane's room is counted right at once.
      const start = () => {
        this.running = true;
        this.started += 1;
        let working: Promise<T>;
        try {
          working = work();
        } catch (error) {
          working = Promise.reject(error);
        }
        working.then(
          (value) => {
            this.startNext();
            resolve(value);
          },
          (error: unknown) => {
            this.startNext();
            reject(error);
          },
        );
      };
      if (this.running) this.waiting.push(start);
      else start();
    });
  }

  private startNext(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running = false;
  }

  /** Whether a photo is at work, how many wait, and how many were started since the process began. */
  stats(): { running: boolean; waiting: number; started: number } {
    return { running: this.running, waiting: this.waiting.length, started: this.started };
  }
}
