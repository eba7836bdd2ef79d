import { DEFAULT_FILE_SETTINGS } from '@backsignal/core';
import type { FileSettings } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors/app-error.ts';
import { templatesRepo } from '../templates/templates.repo.ts';

type Mappings = Record<string, string>;
type HardcodedValues = Record<string, string>;

/** A mapping as a v1 call gives it: a saved template's name, or the columns themselves. */
export interface MappingChoice {
  template?: string;
  mappings?: Mappings;
  hardcodedValues?: HardcodedValues;
  settings?: Partial<FileSettings>;
}

/** The mapping and file settings a call names; a template is found by its name, whatever the case. */
export async function resolveMapping(
  db: Queryable,
  workspaceId: string,
  choice: MappingChoice,
  current: FileSettings | null,
): Promise<{ mappings: Mappings; hardcodedValues: HardcodedValues; settings: FileSettings }> {
  const settings = { ...(current ?? DEFAULT_FILE_SETTINGS), ...choice.settings };
  if (choice.template === undefined)
    return { mappings: choice.mappings ?? {}, hardcodedValues: choice.hardcodedValues ?? {}, settings };
  const wanted = choice.template.toLowerCase();
  const named = (await templatesRepo.list(db, workspaceId)).find((t) => t.name.toLowerCase() === wanted);
  const t = named && (await templatesRepo.find(db, workspaceId, named.id));
  if (!t)
    throw new AppError('NOT_FOUND', `No template is named "${choice.template}".`, {
      template: 'No template of this name.',
    });
  return { mappings: t.mappings, hardcodedValues: { ...t.hardcoded, ...choice.hardcodedValues }, settings };
}
