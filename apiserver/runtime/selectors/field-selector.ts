// Field selectors: a port of k8s.io/apimachinery/pkg/fields (ParseSelector with value escaping, Matches,
// RequiresExactMatch, String), with Kubernetes' error texts.

import { SelectorParseError } from './label-selector.js';

/** A field requirement's operator; `==` is read as `=`. */
export type FieldOperator = '=' | '!=';

/** One term: `field op value` (the value unescaped). */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

/** fields.EscapeValue: `\`, `,` and `=` prefixed with a backslash. */
export function escapeValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.UnescapeValue: undoes escapeValue; an unescaped `,` or `=`, or another escape, is an error. */
function unescapeValue(s: string): string {
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v, i.e. as its code point number.
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** The comma-separated terms; a backslash-escaped comma stays in its term. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** Splits a term at the first operator; the field part has no escaping. */
function splitTerm(term: string): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** A parsed field selector: terms that all must hold. */
export class FieldSelector {
  constructor(private readonly terms: readonly FieldRequirement[]) {}

  /** The terms, in the sorted order Kubernetes keeps them. */
  requirements(): FieldRequirement[] {
    return [...this.terms];
  }

  /** Whether an object whose selectable fields have these values is selected; a missing field reads as "". */
  matches(fields: Record<string, string>): boolean {
    return this.terms.every((t) => {
      const actual = Object.hasOwn(fields, t.field) ? fields[t.field] : '';
      return t.operator === '=' ? actual === t.value : actual !== t.value;
    });
  }

  /** True when the selector does not restrict anything. */
  isEverything(): boolean {
    return this.terms.length === 0;
  }

  /** fields.Selector.RequiresExactMatch: the value a `field=value` term demands, if there is one. */
  requiresExactMatch(field: string): string | undefined {
    return this.terms.find((t) => t.field === field && t.operator === '=')?.value;
  }

  /** The canonical text form, values escaped (`a=b,c!=d`). */
  toString(): string {
    return this.terms.map((t) => `${t.field}${t.operator}${escapeValue(t.value)}`).join(',');
  }
}

/**
 * fields.ParseSelector: comma-separated `field=value`, `field==value` or `field!=value` terms; values may
 * escape `\`, `,` and `=` with a backslash. The empty string selects everything. Throws SelectorParseError.
 */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const terms: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (split === undefined) throw new SelectorParseError(`invalid selector: '${selector}'; can't understand '${part}'`);
    terms.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value: unescapeValue(split.rhs) });
  }
  return new FieldSelector(terms);
}

/** Rejects a selector naming a field the kind cannot select on (by default `field label not supported: <name>`). */
export function validateFieldSelector(
  sel: FieldSelector,
  supported: readonly string[],
  unsupported: (label: string) => string = (label) => `field label not supported: ${label}`,
): void {
  for (const r of sel.requirements()) {
    if (!supported.includes(r.field)) throw new SelectorParseError(unsupported(r.field));
  }
}

/** The selector with each field renamed by `rename` (a field label conversion); values and operators kept. */
export function renameFields(sel: FieldSelector, rename: (label: string) => string): FieldSelector {
  return new FieldSelector(sel.requirements().map((r) => ({ ...r, field: rename(r.field) })));
}

/** The name when the selector is exactly `metadata.name=<x>` (a single-object list or watch). */
export function exactName(sel: FieldSelector): string | undefined {
  return sel.requirements().length === 1 ? sel.requiresExactMatch('metadata.name') : undefined;
}
