/**
 * The Table columns of a custom resource version, from its CRD's additionalPrinterColumns (Kubernetes'
 * CRD table convertor): each cell is the value at the column's JSONPath, a date as its age; without
 * columns, an Age column.
 */
import type { CustomResourceColumnDefinition } from '../../../api/generated/types.js';
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { translateTimestampSince } from '../../../api/printers/human-duration.js';
import { CREATION_TIMESTAMP_DESCRIPTION } from '../../../api/printers/columns.js';

/** One step of a JSONPath such as `.spec.containers[0].image` or `.metadata.labels['app']`. */
type Step = string | number;

/** The steps of a simple JSONPath (dots, `[n]` indexes and `['key']` subscripts); undefined when it is not one. */
export function parseJsonPath(path: string): Step[] | undefined {
  const text = path.replace(/^\{(.*)\}$/, '$1').trim();
  const steps: Step[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/y;
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return undefined;
    steps.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (m[3] ?? m[4])));
    pos = re.lastIndex;
  }
  return steps;
}

/** The value at a parsed path, or undefined. */
export function valueAt(obj: unknown, steps: readonly Step[]): unknown {
  let v = obj;
  for (const step of steps) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

function cell(type: string, value: unknown, now: Date): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? (Number.isNaN(Date.parse(value)) ? '<invalid>' : translateTimestampSince(value, now)) : null;
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

const AGE_DESCRIPTION = CREATION_TIMESTAMP_DESCRIPTION;
const AGE: CustomResourceColumnDefinition = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

export function customResourceColumns(columns: readonly CustomResourceColumnDefinition[] | undefined): PrinterColumn[] {
  const defs = columns?.length ? columns : [AGE];
  return defs.map((c) => {
    const steps = parseJsonPath(c.jsonPath) ?? [];
    return {
      name: c.name,
      type: c.type as PrinterColumn['type'],
      format: c.format,
      priority: c.priority ?? 0,
      description: c === AGE ? AGE_DESCRIPTION : (c.description ?? ''),
      cell: (obj: ApiObject, now: Date) => cell(c.type, valueAt(obj, steps), now),
    };
  });
}
