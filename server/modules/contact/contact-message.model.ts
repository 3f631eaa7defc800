import { BaseModel } from "../../db/base.model";

/** A message as the admin pages see it. */
export type PublicContactMessage = {
  _id: string;
  userId: string | null;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: string;
};

export class ContactMessage extends BaseModel {
  static tableName = "contact_messages";

  id!: string;
  userId!: string | null;
  name!: string;
  email!: string;
  subject!: string;
  message!: string;
  createdAt!: Date;

  // Messages are never edited: no updatedAt to keep.
  $beforeUpdate() {}

  toPublic(): PublicContactMessage {
    return {
      _id: this.id,
      userId: this.userId,
      name: this.name,
      email: this.email,
      subject: this.subject,
      message: this.message,
      createdAt: new Date(this.createdAt).toISOString(),
    };
  }
}
