/**
 * EventRateLimit: token buckets over Event writes, from its configuration (eventratelimit
 * Configuration `limits`): Server (one bucket), Namespace, User and SourceAndObject (a bucket per key,
 * the `cacheSize` most recent kept, default 4096), each with `qps` and `burst`. A write finding any of
 * its buckets empty is refused with 429 `limit reached on type <type> for key <key>`.
 */
import { type ApiObject, isPlainObject } from '../../api/object.js';
import { assertConfigType } from '../../api/config-versions.js';
import type { ApiDomain } from '../../api/domain.js';
import * as status from '../../api/status.js';
import type { AdmissionAttributes, PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { isResource } from '../resources.js';

const TYPES = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
type LimitType = (typeof TYPES)[number];
const DEFAULT_CACHE_SIZE = 4096;

interface Limit {
  type: LimitType;
  qps: number;
  burst: number;
  cacheSize: number;
}

const isLimitType = (v: unknown): v is LimitType => TYPES.some((t) => t === v);

function readConfig(config: unknown, domain: ApiDomain): Limit[] {
  assertConfigType('EventRateLimit', config, domain, '', { allowUntyped: true });
  const limits = isPlainObject(config) ? config.limits : undefined;
  if (!Array.isArray(limits) || limits.length === 0) throw new Error('limits: Required value: must not be empty');
  return limits.map((l: Partial<Limit>, i) => {
    const type = l.type;
    if (!isLimitType(type))
      throw new Error(
        `limits[${i}].type: Unsupported value: ${JSON.stringify(l.type)}: supported values: ${TYPES.map((t) => JSON.stringify(t)).join(', ')}`,
      );
    if (!(typeof l.qps === 'number' && l.qps > 0))
      throw new Error(`limits[${i}].qps: Invalid value: ${JSON.stringify(l.qps)}: must be positive`);
    if (!(typeof l.burst === 'number' && l.burst > 0))
      throw new Error(`limits[${i}].burst: Invalid value: ${JSON.stringify(l.burst)}: must be positive`);
    const cacheSize = l.cacheSize ?? DEFAULT_CACHE_SIZE;
    if (!(typeof cacheSize === 'number' && cacheSize > 0))
      throw new Error(`limits[${i}].cacheSize: Invalid value: ${JSON.stringify(cacheSize)}: must be positive`);
    return { type, qps: l.qps, burst: l.burst, cacheSize };
  });
}

class Bucket {
  private tokens: number;
  private last = performance.now();
  constructor(
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }
  tryAccept(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Buckets by key, the least recently used dropped past cacheSize. */
class Buckets {
  private readonly map = new Map<string, Bucket>();
  constructor(private readonly limit: Limit) {}
  get(key: string): Bucket {
    let b = this.map.get(key);
    if (b) this.map.delete(key);
    else b = new Bucket(this.limit.qps, this.limit.burst);
    this.map.set(key, b);
    if (this.map.size > this.limit.cacheSize) this.map.delete(this.map.keys().next().value!);
    return b;
  }
}

function keyOf(type: LimitType, a: AdmissionAttributes): string {
  switch (type) {
    case 'Server':
      return '';
    case 'Namespace':
      return a.namespace;
    case 'User':
      return a.user.name;
    case 'SourceAndObject': {
      const e = a.object as ApiObject & {
        source?: { component?: string; host?: string };
        involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string };
      };
      const o = e.involvedObject ?? {};
      return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion].map((x) => x ?? '').join('');
    }
  }
}

export const newEventRateLimit: PluginFactory = ({ domain }, config): ValidatingPlugin => {
  const limits = readConfig(config, domain).map((limit) => ({ limit, buckets: new Buckets(limit) }));
  return {
    name: 'EventRateLimit',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(a) {
      if (!isResource(a.resource, { group: '', resource: 'events' }) || a.subresource || !a.object) return;
      for (const { limit, buckets } of limits) {
        const key = keyOf(limit.type, a);
        if (!buckets.get(key).tryAccept()) {
          throw status.tooManyRequests(`Too many requests: limit reached on type ${limit.type} for key ${key}`, 1);
        }
      }
    },
  };
};
