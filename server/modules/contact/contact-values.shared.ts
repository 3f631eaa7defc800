/**
 * Limits of a contact message, plain values for the form (maxLength) and the schema alike:
 * generous for a person, small enough that spam cannot fill the disk.
 */
export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;
