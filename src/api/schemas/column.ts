import * as z from 'zod';
import { DateTime } from './common';

// Spec 2.5, 4.6 and part 8.

export const COLUMN_TYPES = ['string', 'float', 'integer', 'boolean', 'histogram'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const COLUMN_LIMITS = { keyNameMin: 1, keyNameMax: 255, descriptionMax: 255 } as const;

export const ColumnKeyName = z
  .string()
  .min(COLUMN_LIMITS.keyNameMin, 'key_name must not be empty')
  .max(COLUMN_LIMITS.keyNameMax, `key_name must be at most ${COLUMN_LIMITS.keyNameMax} characters`);

/** A column as the service sends it (read tolerantly: unknown members kept, null read as absent). */
export const Column = z.looseObject({
  id: z.string().optional(),
  key_name: z.string(),
  // Unknown future types are kept as strings rather than failing the whole listing.
  type: z.string().default('string'),
  description: z.string().optional(),
  hidden: z.boolean().default(false),
  /** Absent for a column that never received data. */
  last_written: z.string().optional(),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
});
export type Column = z.infer<typeof Column>;

export const ColumnList = z.array(Column);

/** 4.6 query parameters: an optional `key_name` selects one column. */
export const ListColumnsQuery = z.object({ key_name: ColumnKeyName.optional() });
export type ListColumnsQuery = z.infer<typeof ListColumnsQuery>;
