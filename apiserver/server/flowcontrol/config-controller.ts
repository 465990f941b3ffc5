/**
 * API Priority and Fairness' configuration (Kubernetes' apf_controller.go): the FlowSchemas and
 * PriorityLevelConfigurations as the informers last gave them, digested into the matching order and
 * one QueueSet per level, the server's seats shared among the levels (concurrency.ts). A level whose
 * spec changes gets a new QueueSet; the old one drains what it holds (Kubernetes quiesces it). The
 * mandatory `exempt` and `catch-all` objects are imagined while they are missing. Each digest works
 * out every FlowSchema's Dangling condition and hands the ones to change to `writeDangling`; every
 * adjustment period the levels' current seats follow their seat demand (borrowing).
 */
import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from '../../api/generated/types.js';
import { type ApiObject, asKind, jsonEqual, type KindObject } from '../../api/object.js';
import { ClassificationMemo, matchingOrder, type RequestDigest } from './classify.js';
import { allocate, allocationItem, levelLimits, sharesOf, type LevelLimits } from './concurrency.js';
import { QueueSet, type QueuingConfig } from './queue-set.js';
import { maxSeatsOf } from './work-estimate.js';

export interface LevelState {
  readonly name: string;
  readonly uid: string;
  readonly object: PriorityLevelConfiguration;
  readonly exempt: boolean;
  limits: LevelLimits;
  /** The most seats one request may take here. */
  maxSeats: number;
  queueSet: QueueSet;
}

export interface ClassifiedRequest {
  schema: FlowSchema;
  level: LevelState;
  distinguisher: string;
}

export interface ConfigControllerOptions {
  /** This process' seats: (--max-requests-inflight + --max-mutating-requests-inflight) / workers. */
  serverConcurrencyLimit: number;
  mandatory: { priorityLevels: PriorityLevelConfiguration[]; flowSchemas: FlowSchema[] };
  now?: () => number;
  /** Writes a FlowSchema's Dangling condition (as the status subresource). */
  writeDangling?: (name: string, condition: FlowSchemaCondition) => void;
}

const EXEMPT = 'exempt';
const CATCH_ALL = 'catch-all';

export class ConfigController {
  readonly serverConcurrencyLimit: number;
  private readonly now: () => number;
  private readonly levelObjects = new Map<string, PriorityLevelConfiguration>();
  private readonly schemaObjects = new Map<string, FlowSchema>();
  private levelStates = new Map<string, LevelState>();
  private ordered: FlowSchema[] = [];
  /** Each matching key's schema under the current `ordered` (reset by every digest). */
  private readonly memo = new ClassificationMemo();
  private catchAll!: FlowSchema;
  private digestQueued = false;

  constructor(private readonly options: ConfigControllerOptions) {
    this.serverConcurrencyLimit = options.serverConcurrencyLimit;
    this.now = options.now ?? Date.now;
    this.digest();
  }

  /** The informer handlers of the two kinds. */
  readonly priorityLevels = this.handler(this.levelObjects);
  readonly flowSchemas = this.handler(this.schemaObjects);

  classify(d: RequestDigest): ClassifiedRequest {
    const { schema, distinguisher } = this.memo.classify(this.ordered, this.catchAll, d);
    const level = this.levelStates.get(schema.spec!.priorityLevelConfiguration.name) ?? this.levelStates.get(CATCH_ALL)!;
    return { schema, level, distinguisher };
  }

  levels(): LevelState[] {
    return [...this.levelStates.values()];
  }

  schemas(): FlowSchema[] {
    return this.ordered;
  }

  /** Sets every limited level's current seats from its demand since the last adjustment. */
  adjustConcurrency(): void {
    const limited = this.levels().filter((l) => !l.exempt);
    const nominalSum = limited.reduce((a, l) => a + l.limits.nominalCL, 0);
    const items = limited.map((l) => allocationItem(l.limits, l.queueSet.takeDemand()));
    const allocs = allocate(nominalSum, items);
    limited.forEach((l, i) => l.queueSet.setConcurrencyLimit(Math.max(1, Math.round(allocs[i]))));
  }

  private handler<T extends KindObject>(objects: Map<string, T>) {
    const changed = () => this.queueDigest();
    return {
      replace: (objs: ApiObject[]) => {
        objects.clear();
        for (const o of objs) objects.set(o.metadata.name!, asKind<T>(o));
        changed();
      },
      put: (o: ApiObject) => {
        objects.set(o.metadata.name!, asKind<T>(o));
        changed();
      },
      remove: (o: ApiObject) => {
        objects.delete(o.metadata.name!);
        changed();
      },
    };
  }

  /** One digest for a burst of informer events (a relist hands over hundreds at once). */
  private queueDigest(): void {
    if (this.digestQueued) return;
    this.digestQueued = true;
    queueMicrotask(() => {
      this.digestQueued = false;
      this.digest();
    });
  }

  digest(): void {
    const levels = new Map(this.levelObjects);
    for (const m of this.options.mandatory.priorityLevels) if (!levels.has(m.metadata.name!)) levels.set(m.metadata.name!, m);
    const shareSum = [...levels.values()].reduce((a, pl) => a + sharesOf(pl.spec!).shares, 0);
    const next = new Map<string, LevelState>();
    for (const [name, pl] of levels) next.set(name, this.levelState(pl, shareSum));
    this.levelStates = next;

    const good: FlowSchema[] = [];
    for (const fs of this.schemaObjects.values()) {
      const plName = fs.spec?.priorityLevelConfiguration?.name ?? '';
      const dangling = !levels.has(plName);
      this.noteDangling(fs, plName, dangling);
      if (!dangling) good.push(fs);
    }
    const mandatory = (name: string) => this.options.mandatory.flowSchemas.find((f) => f.metadata.name === name)!;
    if (!good.some((f) => f.metadata.name === EXEMPT)) good.push(mandatory(EXEMPT));
    if (!good.some((f) => f.metadata.name === CATCH_ALL)) good.push(mandatory(CATCH_ALL));
    this.ordered = matchingOrder(good);
    this.catchAll = good.find((f) => f.metadata.name === CATCH_ALL)!;
    this.memo.reset();
  }

  private levelState(pl: PriorityLevelConfiguration, shareSum: number): LevelState {
    const name = pl.metadata.name!;
    const limits = levelLimits(this.serverConcurrencyLimit, pl.spec!, shareSum);
    const exempt = pl.spec!.type === 'Exempt';
    const q = pl.spec!.limited?.limitResponse;
    const queuing: QueuingConfig | undefined =
      !exempt && q?.type === 'Queue'
        ? {
            // Validation keeps these positive; a stored object that is not still only queues within bounds.
            queues: Math.max(1, q.queuing?.queues ?? 64),
            handSize: Math.max(1, q.queuing?.handSize ?? 8),
            queueLengthLimit: Math.max(0, q.queuing?.queueLengthLimit ?? 50),
          }
        : undefined;
    const old = this.levelStates.get(name);
    const initialCL = Math.max(1, limits.nominalCL - Math.floor(limits.lendableCL / 2));
    const sameShape = old && old.exempt === exempt && jsonEqual(old.queueSet.queuing ?? null, queuing ?? null);
    const queueSet = sameShape ? old.queueSet : new QueueSet(exempt, queuing, initialCL, this.now, limits.nominalCL);
    if (sameShape && !jsonEqual(old.limits, limits)) {
      queueSet.setWideSeatsLimit(limits.nominalCL);
      queueSet.setConcurrencyLimit(initialCL);
    }
    return {
      name,
      uid: pl.metadata.uid ?? '',
      object: pl,
      exempt,
      limits,
      maxSeats: maxSeatsOf(limits.nominalCL, queuing?.handSize),
      queueSet,
    };
  }

  private noteDangling(fs: FlowSchema, plName: string, dangling: boolean): void {
    const want: FlowSchemaCondition = dangling
      ? {
          type: 'Dangling',
          status: 'True',
          reason: 'NotFound',
          message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" but there is no such object`,
        }
      : {
          type: 'Dangling',
          status: 'False',
          reason: 'Found',
          message: `This FlowSchema references the PriorityLevelConfiguration object named "${plName}" and it exists`,
        };
    const have = fs.status?.conditions?.find((c) => c.type === 'Dangling');
    if (have && have.status === want.status && have.reason === want.reason && have.message === want.message) return;
    this.options.writeDangling?.(fs.metadata.name!, {
      ...want,
      lastTransitionTime: new Date(this.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
    });
  }
}

/** The condition list with `c` in place of the one of its type. */
export function withCondition(conditions: FlowSchemaCondition[] | undefined, c: FlowSchemaCondition): FlowSchemaCondition[] {
  const rest = (conditions ?? []).filter((x) => x.type !== c.type);
  return [...rest, c];
}
