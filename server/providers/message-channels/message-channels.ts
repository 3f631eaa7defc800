import type { Knex } from "knex";
import type { StatementPart } from "../../modules/shared/statement";
import { emailChannel } from "./email-channel";
import { MESSAGE_CHANNEL_IDS, type Message, type MessageChannel, type MessageChannelId } from "./message-channel";

export { MESSAGE_CHANNEL_IDS, messageOf, type Message, type MessageChannelId } from "./message-channel";

/**
 * Every message channel the store knows, registered here and nowhere else; MESSAGE_CHANNELS (a
 * setting) chooses those used. Adding one: docs/recipes.md.
 */
const KNOWN_CHANNELS: Record<MessageChannelId, MessageChannel> = { email: emailChannel };

/**
 * The channels chosen: a message goes by every one of them that carries it. The flows hand their
 * messages to this, never to a channel.
 */
export class MessageChannels {
  private constructor(readonly chosen: readonly MessageChannel[]) {}

  /** The channels a setting names, in its order (ids checked when the configuration is loaded). */
  static chosenBy(ids: readonly string[]): MessageChannels {
    return new MessageChannels(
      ids.map((id) => {
        if (!(MESSAGE_CHANNEL_IDS as readonly string[]).includes(id)) throw new Error(`Unknown message channel ${id}`);
        return KNOWN_CHANNELS[id as MessageChannelId];
      }),
    );
  }

  /** Writes the messages for sending, in the caller's transaction, by every channel that carries each. */
  async queue(db: Knex, messages: Message[]): Promise<void> {
    for (const [channel, carried] of this.carriedBy(messages)) await channel.queue(db, carried);
  }

  /** The same as parts of the caller's one statement, one per channel that carries any. */
  queueParts(messages: Message[]): StatementPart[] {
    return this.carriedBy(messages).map(([channel, carried]) => channel.queuePart(`queued_${channel.id}`, carried));
  }

  private carriedBy(messages: Message[]): [MessageChannel, Message[]][] {
    return this.chosen.flatMap((channel): [MessageChannel, Message[]][] => {
      const carried = messages.filter((message) => channel.carries(message));
      return carried.length > 0 ? [[channel, carried]] : [];
    });
  }
}
