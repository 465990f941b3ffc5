// Label selectors: a port of k8s.io/apimachinery/pkg/labels (Parse, NewRequirement, Matches, String) and of
// metav1.LabelSelectorAsSelector, with Kubernetes' error texts.

import { type FieldError, type FieldPath, aggregateMessage, errorMessage, fieldPath, goQuote, invalid } from '../../api/field-errors.js';
import { isQualifiedName, isValidLabelValue } from '../../api/validation/names.js';
import { messageOf } from '../../api/thrown.js';

/** A selector (label or field) that could not be parsed or is not allowed; the message is Kubernetes' text. */
export class SelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorParseError';
  }
}

/** selection.Operator values a label requirement can use. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

const BINARY_OPERATORS: LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

/** One requirement: `key op values`. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** ParseInt(s, 10, 64): the value as a bigint, or undefined when it is not a decimal int64. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

/** A key that is not a qualified name; labels.Parse checks keys with a nil field path, printed as `<nil>`. */
function validateLabelKey(key: string, path: FieldPath | undefined): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length > 0 ? invalid(path === undefined ? '<nil>' : path, key, errs.join('; ')) : undefined;
}

/**
 * labels.NewRequirement: checks the key, the number of values for the operator and each value.
 * Throws SelectorParseError with the aggregated field errors.
 */
export function newRequirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  const errs: FieldError[] = [];
  const keyErr = validateLabelKey(key, fieldPath('key'));
  if (keyErr) errs.push(keyErr);
  const valuePath = fieldPath('values');
  const shown = values.length === 0 ? null : values; // Go prints the nil slice of no values as null
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(invalid(valuePath, shown, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(invalid(valuePath, shown, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(invalid(valuePath, shown, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(invalid(valuePath, shown, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(invalid(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(invalid(valuePath.index(i).key(key), v, msgs.join('; ')));
  });
  if (errs.length > 0) throw new SelectorParseError(aggregateMessage(errs));
  return { key, operator, values: [...values] };
}

function requirementMatches(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key] : '';
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const actual = parseInt64(value);
      const wanted = parseInt64(r.values[0]);
      if (actual === undefined || wanted === undefined) return false;
      return r.operator === 'gt' ? actual > wanted : actual < wanted;
    }
  }
}

const OPERATOR_TEXT: Record<LabelOperator, string> = {
  in: ' in ',
  notin: ' notin ',
  '=': '=',
  '==': '==',
  '!=': '!=',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

function requirementString(r: LabelRequirement): string {
  const head = `${r.operator === '!' ? '!' : ''}${r.key}${OPERATOR_TEXT[r.operator]}`;
  if (r.operator === 'exists' || r.operator === '!') return head;
  const values = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${head}(${values})` : `${head}${values}`;
}

/** A parsed label selector: requirements that all must hold (sorted by key), or Nothing. */
export class LabelSelector {
  private constructor(
    readonly requirements: readonly LabelRequirement[],
    private readonly selectsNothing: boolean,
  ) {}

  /** labels.Everything(): matches every object. */
  static everything(): LabelSelector {
    return new LabelSelector([], false);
  }

  /** labels.Nothing(): matches no object (the selector of a nil metav1.LabelSelector). */
  static nothing(): LabelSelector {
    return new LabelSelector([], true);
  }

  /** A selector of the given requirements, sorted by key like Kubernetes' Add. */
  static of(requirements: readonly LabelRequirement[]): LabelSelector {
    const sorted = [...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return new LabelSelector(sorted, false);
  }

  /** Whether an object with these labels is selected. */
  matches(labels: Record<string, string> | undefined): boolean {
    if (this.selectsNothing) return false;
    return this.requirements.every((r) => requirementMatches(r, labels ?? {}));
  }

  /** Kubernetes' Empty(): true when the selector does not restrict anything. */
  isEverything(): boolean {
    return !this.selectsNothing && this.requirements.length === 0;
  }

  /** The canonical text form (`a=b,c in (d,e),!f`). */
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

type Token =
  | 'eos'
  | 'closedPar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'gt'
  | 'identifier'
  | 'in'
  | 'lt'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

const STRING_TO_TOKEN: Record<string, Token> = {
  ')': 'closedPar',
  ',': 'comma',
  '!': 'doesNotExist',
  '==': 'doubleEquals',
  '=': 'equals',
  '>': 'gt',
  in: 'in',
  '<': 'lt',
  '!=': 'notEquals',
  notin: 'notIn',
  '(': 'openPar',
};

interface Item {
  tok: Token;
  lit: string;
}

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch);

function tokenOf(s: string): Token | undefined {
  return Object.hasOwn(STRING_TO_TOKEN, s) ? STRING_TO_TOKEN[s] : undefined;
}

/** The lexer of labels.Parse: identifiers, keywords and the longest operator starting at each position. */
function scan(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos])) pos++;
    if (pos >= s.length) {
      items.push({ tok: 'eos', lit: '' });
      return items;
    }
    if (isSpecialSymbol(s[pos])) {
      // Every special symbol is a token on its own; extend it while the longer text is still one ("!=", "==").
      let lit = s[pos++];
      while (pos < s.length && tokenOf(lit + s[pos]) !== undefined) lit += s[pos++];
      items.push({ tok: tokenOf(lit) ?? 'identifier', lit });
    } else {
      let buffer = '';
      while (pos < s.length && !isSpecialSymbol(s[pos]) && !isWhitespace(s[pos])) buffer += s[pos++];
      items.push({ tok: tokenOf(buffer) ?? 'identifier', lit: buffer });
    }
  }
}

type Context = 'keyAndOperator' | 'values';

/** The recursive-descent parser of labels.Parse, with its error texts. */
class Parser {
  private position = 0;

  constructor(private readonly items: Item[]) {}

  private lookahead(context: Context): Item {
    return this.adjust(this.items[this.position], context);
  }

  private consume(context: Context): Item {
    return this.adjust(this.items[this.position++], context);
  }

  /** In a values context the keywords `in` and `notin` are plain identifiers. */
  private adjust(item: Item, context: Context): Item {
    return context === 'values' && (item.tok === 'in' || item.tok === 'notIn') ? { tok: 'identifier', lit: item.lit } : item;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead('values');
      switch (tok) {
        case 'identifier':
        case 'doesNotExist': {
          let r: LabelRequirement;
          try {
            r = this.parseRequirement();
          } catch (err) {
            throw new SelectorParseError(`unable to parse requirement: ${messageOf(err)}`);
          }
          requirements.push(r);
          const next = this.consume('values');
          if (next.tok === 'eos') return requirements;
          if (next.tok !== 'comma') throw new SelectorParseError(`found '${next.lit}', expected: ',' or 'end of string'`);
          const after = this.lookahead('values');
          if (after.tok !== 'identifier' && after.tok !== 'doesNotExist') {
            throw new SelectorParseError(`found '${after.lit}', expected: identifier after ','`);
          }
          break;
        }
        case 'eos':
          return requirements;
        default:
          throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator?: LabelOperator } {
    let operator: LabelOperator | undefined;
    let item = this.consume('values');
    if (item.tok === 'doesNotExist') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.tok !== 'identifier') throw new Error(`found '${item.lit}', expected: identifier`);
    const keyErr = validateLabelKey(item.lit, undefined);
    if (keyErr) throw new Error(errorMessage(keyErr));
    const next = this.lookahead('values').tok;
    if ((next === 'eos' || next === 'comma') && operator !== '!') operator = 'exists';
    return { key: item.lit, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, lit } = this.consume('keyAndOperator');
    const ops: Partial<Record<Token, LabelOperator>> = {
      in: 'in',
      equals: '=',
      doubleEquals: '==',
      gt: 'gt',
      lt: 'lt',
      notIn: 'notin',
      notEquals: '!=',
    };
    const op = ops[tok];
    if (op === undefined) throw new Error(`found '${lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    return op;
  }

  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.tok !== 'openPar') throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead('values');
    switch (tok) {
      case 'identifier':
      case 'comma': {
        const values = this.parseIdentifiersList();
        if (this.consume('values').tok !== 'closedPar') throw new Error(`found '${lit}', expected: ')'`);
        return values;
      }
      case 'closedPar':
        this.consume('values');
        return new Set(['']);
      default:
        throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume('values');
      if (tok === 'identifier') {
        values.add(lit);
        const next = this.lookahead('values');
        if (next.tok === 'comma') continue;
        if (next.tok === 'closedPar') return values;
        throw new Error(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok !== 'comma') throw new Error(`found '${lit}', expected: ',', or identifier`);
      if (values.size === 0) values.add(''); // "(,"
      const next = this.lookahead('values').tok;
      if (next === 'closedPar') {
        values.add(''); // ",)"
        return values;
      }
      if (next === 'comma') {
        this.consume('values');
        values.add(''); // ",,"
      }
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead('values').tok;
    if (next === 'eos' || next === 'comma') return new Set(['']);
    const { tok, lit } = this.consume('values');
    if (tok === 'identifier') return new Set([lit]);
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

/**
 * labels.Parse: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, comma separated;
 * the empty string selects everything. Throws SelectorParseError with Kubernetes' message.
 */
export function parseLabelSelector(selector: string): LabelSelector {
  return LabelSelector.of(new Parser(scan(selector)).parse());
}

/** metav1.LabelSelectorRequirement. */
export interface LabelSelectorRequirementObject {
  key: string;
  operator: string;
  values?: string[];
}

/** metav1.LabelSelector as found in object specs. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirementObject[];
}

const EXPRESSION_OPERATORS: Record<string, LabelOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * metav1.LabelSelectorAsSelector: a missing selector selects nothing, an empty one everything.
 * Throws SelectorParseError for an invalid requirement or operator.
 */
export function labelSelectorFromObject(sel: LabelSelectorObject | null | undefined): LabelSelector {
  if (sel === null || sel === undefined) return LabelSelector.nothing();
  const matchLabels = Object.entries(sel.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const expressions = sel.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return LabelSelector.everything();
  const requirements = matchLabels.map(([k, v]) => newRequirement(k, '=', [v]));
  for (const expr of expressions) {
    const op = Object.hasOwn(EXPRESSION_OPERATORS, expr.operator) ? EXPRESSION_OPERATORS[expr.operator] : undefined;
    if (op === undefined) throw new SelectorParseError(`${goQuote(expr.operator)} is not a valid label selector operator`);
    requirements.push(newRequirement(expr.key, op, expr.values ?? []));
  }
  return LabelSelector.of(requirements);
}
