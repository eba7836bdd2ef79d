import type { RowResult } from '../validate/row-validator.ts';
import { createEventWriter, type EncodedEvent } from './event-writer.ts';

export interface ServerEvent {
  event_name: string;
  event_time: number;
  action_source: string;
  event_id: string;
  user_data: Record<string, unknown>;
  custom_data?: Record<string, unknown>;
  app_data?: Record<string, unknown>;
  original_event_data?: Record<string, unknown>;
  [k: string]: unknown;
}

/**
 * One row's Meta server event as an object, for previews and tests. Sending uses the writer's JSON text
 * (createEventWriter), which this parses, so both always agree.
 */
export function buildEvent(row: Pick<RowResult, 'effectiveRow'>): ServerEvent {
  return JSON.parse(createEventWriter()(row).json) as ServerEvent;
}

/** An event object as the writer's output, for events built by hand (tests, tools). */
export const encodeEvent = (event: ServerEvent): EncodedEvent => ({
  event_name: event.event_name,
  event_id: event.event_id,
  json: JSON.stringify(event),
});
