// What both the core bench's one-core paths and its worker threads run per file: rows out of a CSV reader, and
// the full pipeline per row (validate and correct, then write the event's JSON), as the API's pipeline worker.
import {
  createCsvReader,
  createEventWriter,
  createRowValidator,
  DEFAULT_FILE_SETTINGS,
  type CsvItem,
} from '@backsignal/core';

export type OnRow = (values: string[], rowNumber: number, headers: string[]) => void;

/** A CSV reader that hands each row, with the file's headers, to `onRow`; `end()` answers the row count. */
export function rowReader(onRow: OnRow) {
  const reader = createCsvReader();
  let headers: string[] = [];
  let rows = 0;
  const take = (items: CsvItem[]) => {
    for (const it of items) {
      if (it.kind === 'header') headers = it.info.headers;
      else if (it.kind === 'row') {
        rows++;
        onRow(it.values, it.rowNumber, headers);
      }
    }
  };
  return {
    push: (chunk: Uint8Array) => take(reader.push(chunk)),
    end: () => {
      take(reader.end());
      return rows;
    },
  };
}

/** The full pipeline for one file's rows; `stats` counts the events written and their JSON characters. */
export function pipelineRows(mappings: Record<string, string>, now: number) {
  let validate: ReturnType<typeof createRowValidator> | null = null;
  const write = createEventWriter();
  const stats = { events: 0, jsonChars: 0 };
  const onRow: OnRow = (values, rowNumber, headers) => {
    validate ??= createRowValidator({
      headers,
      mappings,
      hardcoded: { action_source: 'physical_store' },
      settings: DEFAULT_FILE_SETTINGS,
      now,
    });
    const r = validate(values, rowNumber);
    if (!r.errors.length) {
      stats.events++;
      stats.jsonChars += write(r).json.length;
    }
  };
  return { onRow, stats };
}
