/**
 * Feature gates (component-base's featuregate): named switches, each with a stage. Alpha gates are
 * off by default, beta gates on, GA gates on and usually locked (setting one to its other value is
 * refused); setting a GA or deprecated gate is allowed with a warning. `--feature-gates=A=true,B=false`
 * sets them on every binary, with Kubernetes' messages for what it refuses.
 */
import { boolValue, type ValueType } from '../flag/values.js';
import { messageOf } from '../../api/thrown.js';

export type PreRelease = 'ALPHA' | 'BETA' | 'GA' | 'Deprecated';

export interface FeatureSpec {
  default: boolean;
  preRelease: PreRelease;
  /** The gate cannot be set to anything but its default. */
  lockToDefault?: boolean;
}

/** Gates that set every alpha or beta gate at once. */
const ALL_ALPHA = 'AllAlpha';
const ALL_BETA = 'AllBeta';

export class FeatureGate {
  private readonly known: Map<string, FeatureSpec>;
  private readonly enabledGates = new Map<string, boolean>();
  /** What setting GA or deprecated gates warned (a binary logs them once it has a logger). */
  readonly warnings: string[] = [];

  constructor(known: Record<string, FeatureSpec>) {
    this.known = new Map(Object.entries(known));
    this.known.set(ALL_ALPHA, { default: false, preRelease: 'ALPHA' });
    this.known.set(ALL_BETA, { default: false, preRelease: 'BETA' });
  }

  /** Parses "key1=value1,key2=value2" and applies it; throws with the reason a bad entry is refused. */
  set(value: string): void {
    const m = new Map<string, boolean>();
    for (const s of value.split(',')) {
      if (s.length === 0) continue;
      const eq = s.indexOf('=');
      const k = (eq < 0 ? s : s.slice(0, eq)).trim();
      if (eq < 0) throw new Error(`missing bool value for ${k}`);
      const v = s.slice(eq + 1).trim();
      let b: boolean;
      try {
        b = boolValue.set(v, false, false);
      } catch (err) {
        throw new Error(`invalid value of ${k}=${v}, err: ${messageOf(err)}`);
      }
      m.set(k, b);
    }
    this.setFromMap(m);
  }

  setFromMap(m: ReadonlyMap<string, boolean>): void {
    for (const [k, v] of m) {
      const spec = this.known.get(k);
      if (!spec) throw new Error(`unrecognized feature gate: ${k}`);
      if (spec.lockToDefault && spec.default !== v)
        throw new Error(`cannot set feature gate ${k} to ${v}, feature is locked to ${spec.default}`);
    }
    for (const [k, v] of m) {
      this.enabledGates.set(k, v);
      const spec = this.known.get(k)!;
      if (k === ALL_ALPHA || k === ALL_BETA) this.setStage(k === ALL_ALPHA ? 'ALPHA' : 'BETA', v, m);
      if (spec.preRelease === 'Deprecated')
        this.warnings.push(`Setting deprecated feature gate ${k}=${v}. It will be removed in a future release.`);
      else if (spec.preRelease === 'GA') this.warnings.push(`Setting GA feature gate ${k}=${v}. It will be removed in a future release.`);
    }
  }

  /** Whether a gate is on; asking for a gate that was never declared is a programming error. */
  enabled(name: string): boolean {
    const spec = this.known.get(name);
    if (!spec) throw new Error(`feature ${JSON.stringify(name)} is not registered in FeatureGate`);
    return this.enabledGates.get(name) ?? spec.default;
  }

  /** "Name=true|false (STAGE - default=x)" for the gates --help lists: GA and deprecated ones are not. */
  knownFeatures(): string[] {
    return [...this.known]
      .filter(([, spec]) => spec.preRelease !== 'GA' && spec.preRelease !== 'Deprecated')
      .map(([k, spec]) => `${k}=true|false (${spec.preRelease} - default=${spec.default})`)
      .sort();
  }

  /** AllAlpha/AllBeta: every gate of the stage that the same command line does not set itself. */
  private setStage(stage: PreRelease, value: boolean, explicit: ReadonlyMap<string, boolean>): void {
    for (const [k, spec] of this.known) {
      if (spec.preRelease === stage && k !== ALL_ALPHA && k !== ALL_BETA && !explicit.has(k)) this.enabledGates.set(k, value);
    }
  }
}

/** The --feature-gates flag's value type: each occurrence adds to the gates (pflag's mapStringBool). */
export const featureGateValue: ValueType<FeatureGate> = {
  type: 'mapStringBool',
  set(raw, current) {
    current.set(raw);
    return current;
  },
  format: () => '',
  isZero: () => true,
};
