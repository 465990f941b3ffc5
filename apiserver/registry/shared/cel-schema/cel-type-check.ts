/**
 * Type checking of a parsed CEL expression against declared variables, as cel-go's checker does for a
 * CRD's rules: field selection on typed objects, operator and function overloads (the overloads are
 * those the evaluating library registers, so what checks is what runs), comprehension variables, and
 * the `int`/`string`/… type identifiers. Errors carry cel-go's wording and position, formatted as
 * cel-go prints them (`ERROR: <input>:1:15: … | source | ...^`). Where a type is not known (dyn) the
 * checker accepts, as cel-go does.
 */
import { type CelEnv, celEnv, parse, type CelType } from '@bufbuild/cel';
import { celTypeName, DYN, scalar, type CelScalarKind, type CelT } from './cel-types.js';

/** A parsed expression node, as @bufbuild/cel's parser returns it. */
export interface Node {
  id: bigint;
  exprKind: { case: string | undefined; value?: unknown };
}

export interface Comprehension {
  iterVar: string;
  accuVar: string;
  iterRange: Node;
  accuInit: Node;
  loopCondition: Node;
  loopStep: Node;
  result: Node;
}

/** The fields of every kind of node this checker reads. */
export interface NodeValue {
  constantKind: { case: string | undefined };
  name: string;
  operand: Node;
  field: string;
  testOnly: boolean;
  function: string;
  target?: Node;
  args: Node[];
  elements: Node[];
  entries: { keyKind: { value: Node }; value: Node }[];
}

interface Overload {
  target?: CelT;
  args: CelT[];
  result: CelT;
}

function fromLibraryType(t: CelType): CelT {
  switch (t.kind) {
    case 'list':
      return { kind: 'list', elem: fromLibraryType(t.element) };
    case 'map':
      return { kind: 'map', key: fromLibraryType(t.key), value: fromLibraryType(t.value) };
    case 'object':
      return scalar(String(t.name) as CelScalarKind);
    default:
      return scalar(t.name as CelScalarKind);
  }
}

const overloadTables = new WeakMap<CelEnv, Map<string, Overload[]>>();
let standardEnv: CelEnv | undefined;
/** The library's functions by name, with their signatures. */
function overloads(env: CelEnv = (standardEnv ??= celEnv())): Map<string, Overload[]> {
  let overloadTable = overloadTables.get(env);
  if (overloadTable) return overloadTable;
  overloadTable = new Map();
  overloadTables.set(env, overloadTable);
  for (const f of env.funcs) {
    const list = overloadTable.get(f.name) ?? [];
    list.push({
      target: f.target && fromLibraryType(f.target),
      args: f.arguments.map(fromLibraryType),
      result: fromLibraryType(f.result),
    });
    overloadTable.set(f.name, list);
  }
  return overloadTable;
}

const TYPE_IDENTIFIERS = new Set(['int', 'uint', 'double', 'string', 'bool', 'bytes', 'list', 'map', 'null_type', 'type']);

/** Whether a value of type `arg` may be passed where `param` is expected. */
function assignable(param: CelT, arg: CelT): boolean {
  if (param.kind === 'dyn' || arg.kind === 'dyn') return true;
  if (param.kind === 'list') return arg.kind === 'list' && assignable(param.elem, arg.elem);
  if (param.kind === 'map') return arg.kind === 'map' && assignable(param.key, arg.key) && assignable(param.value, arg.value);
  if (param.kind === 'object') return arg.kind === 'object';
  return param.kind === arg.kind;
}

/** The one type both are, or dyn. */
function join(a: CelT, b: CelT): CelT {
  if (a.kind === 'dyn' || b.kind === 'dyn') return DYN;
  if (a.kind === 'list' && b.kind === 'list') return { kind: 'list', elem: join(a.elem, b.elem) };
  if (a.kind === 'map' && b.kind === 'map') return { kind: 'map', key: join(a.key, b.key), value: join(a.value, b.value) };
  return a.kind === b.kind && a.kind !== 'object' ? a : a === b ? a : DYN;
}

/** Whether two types can be compared with == (one unifies with the other). */
function comparable(a: CelT, b: CelT): boolean {
  return a.kind === 'null_type' || b.kind === 'null_type' || assignable(a, b) || assignable(b, a);
}

/** How cel-go names a scalar type when it refuses a field selection on it. */
const PROTO_NAMES: Record<string, string> = {
  int: 'primitive:INT64',
  uint: 'primitive:UINT64',
  double: 'primitive:DOUBLE',
  string: 'primitive:STRING',
  bool: 'primitive:BOOL',
  bytes: 'primitive:BYTES',
};

/**
 * Where cel-go reports a call: at its `(` for a function or method call, at `?` for the conditional,
 * at the operator for the others (which is where the parser placed them).
 */
function callOffset(source: string, node: Node, offset: number): number {
  if (node.exprKind.case !== 'callExpr') return offset;
  const fn = (node.exprKind.value as NodeValue).function;
  const mark = fn === '_?_:_' ? '?' : /^[A-Za-z]/.test(fn) ? '(' : undefined;
  const at = mark ? source.indexOf(mark, offset) : -1;
  return at < 0 ? offset : at;
}

interface CheckError {
  node: Node;
  message: string;
}

class Checker {
  readonly errors: CheckError[] = [];
  /** The type of every node checked. */
  readonly types = new Map<Node, CelT>();
  private scopes: Map<string, CelT>[];

  constructor(
    vars: Record<string, CelT>,
    private readonly env?: CelEnv,
  ) {
    this.scopes = [new Map(Object.entries(vars))];
  }

  private fail(node: Node, message: string): CelT {
    this.errors.push({ node, message });
    return DYN;
  }

  private lookup(name: string): CelT | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t) return t;
    }
    return TYPE_IDENTIFIERS.has(name) ? scalar('type') : undefined;
  }

  check(node: Node): CelT {
    const t = this.checkNode(node);
    this.types.set(node, t);
    return t;
  }

  private checkNode(node: Node): CelT {
    const v = node.exprKind.value as NodeValue;
    switch (node.exprKind.case) {
      case 'constExpr':
        return this.constant(v.constantKind.case);
      case 'identExpr':
        return this.lookup(v.name) ?? this.fail(node, `undeclared reference to '${v.name}' (in container '')`);
      case 'selectExpr':
        return this.select(node, this.check(v.operand), v.field, v.testOnly);
      case 'callExpr':
        return this.call(node, v.function, v.target, v.args);
      case 'listExpr': {
        const elems = v.elements.map((e) => this.check(e));
        return { kind: 'list', elem: elems.length ? elems.reduce(join) : DYN };
      }
      case 'structExpr': {
        let key: CelT | undefined;
        let value: CelT | undefined;
        for (const entry of v.entries) {
          const k = this.check(entry.keyKind.value);
          const val = this.check(entry.value);
          key = key ? join(key, k) : k;
          value = value ? join(value, val) : val;
        }
        return { kind: 'map', key: key ?? DYN, value: value ?? DYN };
      }
      case 'comprehensionExpr':
        return this.comprehension(node.exprKind.value as Comprehension);
      default:
        return DYN;
    }
  }

  private constant(kind: string | undefined): CelT {
    const kinds: Record<string, CelScalarKind> = {
      boolValue: 'bool',
      bytesValue: 'bytes',
      doubleValue: 'double',
      int64Value: 'int',
      uint64Value: 'uint',
      stringValue: 'string',
      nullValue: 'null_type',
      durationValue: 'google.protobuf.Duration',
      timestampValue: 'google.protobuf.Timestamp',
    };
    return scalar(kinds[kind ?? ''] ?? 'dyn');
  }

  private select(node: Node, operand: CelT, field: string, testOnly: boolean): CelT {
    let t: CelT;
    if (operand.kind === 'dyn') t = DYN;
    else if (operand.kind === 'map') t = operand.value;
    else if (operand.kind === 'object') {
      const f = operand.fields.get(field);
      if (!f) return this.fail(node, `undefined field '${field}'`);
      t = f;
    } else return this.fail(node, `type '${PROTO_NAMES[operand.kind] ?? celTypeName(operand)}' does not support field selection`);
    return testOnly ? scalar('bool') : t;
  }

  private comprehension(v: Comprehension): CelT {
    const range = this.check(v.iterRange);
    let iter: CelT;
    if (range.kind === 'list') iter = range.elem;
    else if (range.kind === 'map') iter = range.key;
    else if (range.kind === 'dyn') iter = DYN;
    else {
      this.fail(
        v.iterRange,
        `expression of type '${celTypeName(range)}' cannot be the range of a comprehension (must be list, map, or dynamic)`,
      );
      iter = DYN;
    }
    const accu = this.check(v.accuInit);
    this.scopes.push(new Map([[v.accuVar, accu]]));
    this.scopes.push(new Map([[v.iterVar, iter]]));
    this.check(v.loopCondition);
    const step = this.check(v.loopStep);
    this.scopes.pop();
    // An accumulator that starts as an empty list takes the type the step gives it (map, filter).
    if (accu.kind === 'list' && step.kind === 'list' && accu.elem.kind === 'dyn') this.scopes[this.scopes.length - 1].set(v.accuVar, step);
    const result = this.check(v.result);
    this.scopes.pop();
    return result;
  }

  private call(node: Node, fn: string, targetNode: Node | undefined, argNodes: Node[]): CelT {
    const target = targetNode && this.check(targetNode);
    const args = argNodes.map((a) => this.check(a));
    const nomatch = () =>
      this.fail(
        node,
        `found no matching overload for '${fn}' applied to '${target ? `${celTypeName(target)}.` : ''}(${args.map(celTypeName).join(', ')})'`,
      );
    switch (fn) {
      case '_&&_':
      case '_||_':
        return args.every((a) => assignable(scalar('bool'), a)) ? scalar('bool') : nomatch();
      case '@not_strictly_false':
        return scalar('bool');
      case '_==_':
      case '_!=_':
        return comparable(args[0], args[1]) ? scalar('bool') : nomatch();
      case '_?_:_':
        if (!assignable(scalar('bool'), args[0]) || !comparable(args[1], args[2])) return nomatch();
        return join(args[1], args[2]);
      case '_[_]': {
        const [c, i] = args;
        if (c.kind === 'dyn') return DYN;
        if (c.kind === 'list' && assignable(scalar('int'), i)) return c.elem;
        if (c.kind === 'map' && assignable(c.key, i)) return c.value;
        return nomatch();
      }
    }
    const candidates = overloads(this.env).get(fn);
    if (!candidates) return this.fail(node, `undeclared reference to '${fn}' (in container '')`);
    const matching = candidates.filter(
      (o) =>
        !!o.target === !!target &&
        (!target || !o.target || assignable(o.target, target)) &&
        o.args.length === args.length &&
        o.args.every((p, i) => assignable(p, args[i])),
    );
    if (matching.length === 0) return nomatch();
    if (fn === '_+_' && args[0].kind === 'list' && args[1].kind === 'list') return join(args[0], args[1]);
    const results = matching.map((o) => o.result);
    return results.every((r) => celTypeName(r) === celTypeName(results[0])) ? results[0] : DYN;
  }
}

/** An error as cel-go prints it: location, message, and the source line with a caret under the column. */
export function formatCelError(source: string, offset: number, message: string): string {
  const lines = source.split('\n');
  let line = 0;
  let start = 0;
  while (line < lines.length - 1 && start + lines[line].length < offset) {
    start += lines[line].length + 1;
    line++;
  }
  const col = offset - start;
  return `ERROR: <input>:${line + 1}:${col + 1}: ${message}\n | ${lines[line]}\n | ${'.'.repeat(col)}^`;
}

/** A parse error of @bufbuild/cel (`<input>:L:C: message`) in cel-go's format. */
function formatParseError(source: string, message: string): string {
  const m = /^<input>:(\d+):(\d+): (.*)$/s.exec(message);
  if (!m) return `ERROR: <input>: ${message}`;
  const lines = source.split('\n');
  const line = Number(m[1]);
  const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + Number(m[2]) - 1;
  return formatCelError(source, offset, m[3]);
}

/** The expression's type, or its errors in cel-go's format (a parse error, or every type error). */
export interface Checked {
  type: CelT;
  expr: Node;
  /** The type of each node of expr. */
  types: Map<Node, CelT>;
}

/** `env`: the functions the expression may call (default: the standard library). */
export function typeCheck(source: string, vars: Record<string, CelT>, env?: CelEnv): Checked | { error: string } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source);
  } catch (err) {
    return { error: formatParseError(source, err instanceof Error ? err.message : String(err)) };
  }
  const checker = new Checker(vars, env);
  // @bufbuild/cel types its expressions as protobuf messages; Node is the part of their shape the checker reads.
  const expr = parsed.expr as unknown as Node;
  const type = checker.check(expr);
  if (checker.errors.length === 0) return { type, expr, types: checker.types };
  const positions = parsed.sourceInfo?.positions ?? {};
  return {
    error: checker.errors
      .map((e) => formatCelError(source, callOffset(source, e.node, positions[String(e.node.id)] ?? 0), e.message))
      .join('\n'),
  };
}
