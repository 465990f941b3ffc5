/**
 * The static cost estimate of a type-checked rule, computed as cel-go's checker estimates it for
 * Kubernetes: an identifier or field selection costs 1, a function 1 unless its work grows with its
 * arguments (string comparison and concatenation, startsWith, contains, matches, `in` on a list), a
 * list literal 10, a map literal 30, and a comprehension its step and condition times the most
 * elements its range may hold. Sizes come from the schema's bounds carried by the types (cel-types.ts).
 */
import type { Checked, Comprehension, Node, NodeValue } from '../../shared/cel-schema/cel-type-check.js';
import { MAX_REQUEST_BYTES, type CelT } from '../../shared/cel-schema/cel-types.js';

/** cel-go's uint64 costs saturate at their maximum. */
const MAX = 2 ** 64 - 1;
const STRING_TRAVERSAL_FACTOR = 0.1;
const REGEX_LENGTH_FACTOR = 0.25;

interface Range {
  min: number;
  max: number;
}

const add = (a: Range, b: Range): Range => ({ min: Math.min(a.min + b.min, MAX), max: Math.min(a.max + b.max, MAX) });
const times = (a: Range, b: Range): Range => ({ min: Math.min(a.min * b.min, MAX), max: Math.min(a.max * b.max, MAX) });
const factor = (a: Range, f: number): Range => ({ min: Math.min(Math.ceil(a.min * f), MAX), max: Math.min(Math.ceil(a.max * f), MAX) });
const union = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
const ONE: Range = { min: 1, max: 1 };
const ZERO: Range = { min: 0, max: 0 };

const SCALARS = new Set(['int', 'uint', 'double', 'bool', 'null_type', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);

class Coster {
  /** Sizes computed for results (literals, concatenations, conditionals). */
  private readonly sizes = new Map<Node, Range>();

  constructor(private readonly types: Map<Node, CelT>) {}

  private type(n: Node): CelT | undefined {
    return this.types.get(n);
  }

  /** How many elements (characters, items, entries) a node's value may have. */
  size(n: Node): Range {
    const computed = this.sizes.get(n) ?? this.literalSize(n);
    if (computed) return computed;
    const t = this.type(n);
    if (t?.maxElements !== undefined) return { min: 0, max: t.maxElements };
    if (t && SCALARS.has(t.kind)) return ONE;
    return { min: 0, max: MAX };
  }

  private literalSize(n: Node): Range | undefined {
    const v = n.exprKind.value as NodeValue & { constantKind: { value?: unknown } };
    switch (n.exprKind.case) {
      case 'constExpr': {
        const c = v.constantKind;
        if (c.case === 'stringValue') return { min: [...String(c.value)].length, max: [...String(c.value)].length };
        if (c.case === 'bytesValue') return { min: (c.value as Uint8Array).length, max: (c.value as Uint8Array).length };
        return ONE;
      }
      case 'listExpr':
        return { min: v.elements.length, max: v.elements.length };
      case 'structExpr':
        return { min: v.entries.length, max: v.entries.length };
      default:
        return undefined;
    }
  }

  cost(n: Node): Range {
    const v = n.exprKind.value as NodeValue;
    switch (n.exprKind.case) {
      case 'constExpr':
        return ZERO;
      case 'identExpr':
        return ONE;
      case 'selectExpr': {
        const operand = this.cost(v.operand);
        if (v.testOnly) return add(ONE, operand);
        const kind = this.type(v.operand)?.kind;
        return kind === 'map' || kind === 'object' ? add(operand, ONE) : operand;
      }
      case 'callExpr':
        return this.call(n, v);
      case 'listExpr':
        return v.elements.reduce((sum, e) => add(sum, this.cost(e)), { min: 10, max: 10 });
      case 'structExpr':
        return v.entries.reduce((sum, e) => add(add(sum, this.cost(e.keyKind.value)), this.cost(e.value)), { min: 30, max: 30 });
      case 'comprehensionExpr': {
        const c = n.exprKind.value as Comprehension;
        let sum = add(add(this.cost(c.iterRange), this.cost(c.accuInit)), this.cost(c.result));
        const perElement = add(this.cost(c.loopStep), this.cost(c.loopCondition));
        sum = add(sum, times(this.size(c.iterRange), perElement));
        return sum;
      }
      default:
        return ZERO;
    }
  }

  private call(n: Node, v: NodeValue): Range {
    const argCosts = v.args.map((a) => this.cost(a));
    let sum = v.target ? this.cost(v.target) : ZERO;
    const args = argCosts.reduce(add, ZERO);
    const kinds = v.args.map((a) => this.type(a)?.kind);
    const stringy = (k: string | undefined) => k === 'string' || k === 'bytes';
    const target = v.target;
    switch (v.function) {
      case '_&&_':
      case '_||_':
        return add(sum, { min: argCosts[0].min, max: add(argCosts[0], argCosts[1]).max });
      case '_?_:_': {
        this.sizes.set(n, union(this.size(v.args[1]), this.size(v.args[2])));
        return add(sum, add(argCosts[0], union(argCosts[1], argCosts[2])));
      }
      case 'startsWith':
      case 'endsWith':
        if (target) return add(sum, add(factor(this.size(v.args[0]), STRING_TRAVERSAL_FACTOR), args));
        break;
      case 'contains':
        if (target)
          return add(
            sum,
            add(times(factor(this.size(target), STRING_TRAVERSAL_FACTOR), factor(this.size(v.args[0]), STRING_TRAVERSAL_FACTOR)), args),
          );
        break;
      case 'matches':
        if (target) {
          const str = factor(add(this.size(target), ONE), STRING_TRAVERSAL_FACTOR);
          return add(sum, add(times(str, factor(this.size(v.args[0]), REGEX_LENGTH_FACTOR)), args));
        }
        break;
      case '@in':
        if (this.type(v.args[1])?.kind === 'list') return add(sum, add(this.size(v.args[1]), args));
        break;
      case '_+_': {
        const k = this.type(n)?.kind;
        if (k === 'string' || k === 'bytes' || k === 'list') {
          const size = add(this.size(v.args[0]), this.size(v.args[1]));
          this.sizes.set(n, size);
          return add(sum, add(k === 'list' ? ONE : factor(size, STRING_TRAVERSAL_FACTOR), args));
        }
        break;
      }
      case 'string':
      case 'bytes':
        if (!target && v.args.length === 1 && stringy(kinds[0]) && kinds[0] !== v.function) {
          const size = this.size(v.args[0]);
          return add(sum, add(factor(size, STRING_TRAVERSAL_FACTOR), args));
        }
        break;
      case '_==_':
      case '_!=_':
      case '_<_':
      case '_<=_':
      case '_>_':
      case '_>=_': {
        const ordering = v.function !== '_==_' && v.function !== '_!=_';
        const bySize = (k: string | undefined) => stringy(k) || k === 'dyn';
        if (ordering && !(bySize(kinds[0]) || bySize(kinds[1]))) break;
        const smallestMax = Math.min(this.size(v.args[0]).max, this.size(v.args[1]).max);
        const cmp = { min: smallestMax > 0 ? 1 : 0, max: smallestMax };
        return add(sum, add(factor(cmp, STRING_TRAVERSAL_FACTOR), args));
      }
    }
    sum = add(sum, add(ONE, args));
    return sum;
  }
}

/** The most a checked expression is estimated to cost in one evaluation. */
export function estimateCost(checked: Checked): number {
  return new Coster(checked.types).cost(checked.expr).max;
}

/** How many times a rule on values of the type may run when the schema above bounds nothing. */
export function unboundedCardinality(t: CelT): number {
  return Math.floor(MAX_REQUEST_BYTES / ((t.minSize ?? 1) + 1));
}
