/**
 * matchConditions in CEL, evaluated with @bufbuild/cel (a maintained CEL implementation, not a
 * home-made one). JSON values become CEL values (objects → maps, whole numbers → int).
 */
import { type CelEnv, celEnv, isCelError, parse, plan, run } from '@bufbuild/cel';

type CelInput = Parameters<typeof run>[1] extends Record<string, infer V> | undefined ? V : never;

/** A JSON value as a CEL value. */
export function toCel(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  if (Array.isArray(value)) return value.map(toCel);
  // Values already in CEL's form (timestamps, durations, bytes) pass as they are; JSON objects become maps.
  if (typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype) return value as CelInput;
  if (typeof value === 'object') return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  // Not JSON (a function, a symbol): passed on for CEL to refuse.
  return value as CelInput;
}

/** Why an expression does not compile, or undefined when it does. */
export function compileError(expression: string): string | undefined {
  try {
    parse(expression);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** true/false, or an Error when the expression fails or is not a bool. */
export function evaluateCondition(expression: string, vars: Record<string, unknown>): boolean | Error {
  let out: unknown;
  try {
    out = run(expression, Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, toCel(v)])));
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
  if (isCelError(out)) return new Error(out.message);
  if (typeof out !== 'boolean') return new Error(`expression ${JSON.stringify(expression)} is not a bool`);
  return out;
}

let standard: CelEnv | undefined;
const defaultEnv = () => (standard ??= celEnv());

/** A compiled expression: evaluate with JSON variables; the result, or an Error when evaluation fails. */
export type CelProgram = (vars: Record<string, unknown>) => unknown;

/**
 * Parses and plans an expression once, for rules evaluated on every write; throws when it does not parse.
 * `env`: the functions it may call (default: the standard library).
 */
export function compileProgram(expression: string, env: CelEnv = defaultEnv()): { program: CelProgram; ast: unknown } {
  const ast = parse(expression);
  const planned = plan(env, ast);
  const program: CelProgram = (vars) => {
    try {
      const out = planned(Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, toCel(v)])));
      return isCelError(out) ? new Error(out.message) : out;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  };
  return { program, ast };
}
