/**
 * Node ports and the health-check node port of a Service, as Kubernetes' Service registry allocates
 * them (alloc.go initNodePorts / updateNodePorts / health-check handling), taken in one allocator
 * request per write. Ports that share a port number share a node port on create; an update takes
 * only the ports the stored object did not hold and releases, after the write, the ones it dropped.
 */
import { fieldPath, invalid } from '../../../api/field-errors.js';
import type { Service } from '../../../api/generated/types.js';
import { AllocatorError } from './allocator/allocator-error.js';
import type { ServiceAllocators } from './allocator/service-allocators.js';
import type { Allocation } from './allocation.js';
import { internalError, invalidService } from './allocation.js';
import type { ServicePort, ServiceSpec } from './service-spec.js';
import { CLUSTER_IP, EXTERNAL_NAME, needsHealthCheck, needsNodePort, nodePortsOf, shouldAllocateNodePorts } from './service-spec.js';

/** A node port to take: a given value (for ports[index], or the health check when index is -1), or the next free one. */
interface Step {
  index: number;
  port?: number;
}

const HEALTH_CHECK = -1;

function portPath(index: number) {
  return fieldPath('spec', 'ports').index(index).child('nodePort');
}

/** Takes the steps' ports in one request and writes the picked ones into the spec. */
async function take(
  al: ServiceAllocators,
  obj: Service,
  spec: ServiceSpec,
  steps: Step[],
  allocation: Allocation,
  dryRun: boolean,
): Promise<void> {
  const refuse = (step: Step, message: string) =>
    step.index === HEALTH_CHECK
      ? internalError(`failed to allocate requested HealthCheck NodePort ${step.port}: ${message}`)
      : invalidService(obj, [invalid(portPath(step.index), step.port, message)]);
  // A value asked twice in one request is taken by its first step; the second finds it in use.
  const givenOnce = new Set<number>();
  for (const step of steps) {
    if (step.port === undefined) continue;
    if (givenOnce.has(step.port)) throw refuse(step, 'provided port is already allocated');
    givenOnce.add(step.port);
  }
  const given = steps.filter((s) => s.port !== undefined);
  const wanted = steps.filter((s) => s.port === undefined);
  let picked: number[];
  try {
    picked = await al.nodePorts.allocate({ specific: given.map((s) => s.port!), next: wanted.length }, dryRun);
  } catch (err) {
    if (!(err instanceof AllocatorError)) throw err;
    const step = given.find((s) => s.port === err.value);
    if (step && (err.reason === 'NotInRange' || err.reason === 'Allocated')) throw refuse(step, err.message);
    const forPorts = wanted.some((s) => s.index !== HEALTH_CHECK);
    throw internalError(
      forPorts ? `failed to allocate a nodePort: ${err.message}` : `failed to allocate a HealthCheck NodePort 0: ${err.message}`,
    );
  }
  const taken = [...given.map((s) => s.port!), ...picked];
  allocation.taken(() => al.nodePorts.release(taken));
  wanted.forEach((step, i) => {
    if (step.index === HEALTH_CHECK) spec.healthCheckNodePort = picked[i];
    else spec.ports![step.index].nodePort = picked[i];
  });
}

/** initNodePorts: what a new NodePort/LoadBalancer Service needs; ports with one port number share a node port. */
function createSteps(spec: ServiceSpec): { steps: Step[]; shared: [number, number][] } {
  const steps: Step[] = [];
  const shared: [number, number][] = [];
  const firstForPort = new Map<number, number>();
  const ports: ServicePort[] = spec.ports ?? [];
  ports.forEach((p, i) => {
    if (!p.nodePort && !shouldAllocateNodePorts(spec)) return;
    const first = firstForPort.get(p.port ?? 0);
    if (first === undefined) {
      firstForPort.set(p.port ?? 0, i);
      // A later port with the same number may name the node port for both.
      const named = ports.find((q) => q.port === p.port && q.nodePort)?.nodePort;
      steps.push(named ? { index: i, port: named } : { index: i });
      if (named) p.nodePort = named;
    } else if (!p.nodePort) shared.push([i, first]);
    else if (p.nodePort !== ports[first].nodePort) steps.push({ index: i, port: p.nodePort });
  });
  return { steps, shared };
}

/** Node ports and health-check node port of a new Service. */
export async function allocateNodePorts(
  al: ServiceAllocators,
  obj: Service,
  spec: ServiceSpec,
  allocation: Allocation,
  dryRun: boolean,
): Promise<void> {
  const { steps, shared } = needsNodePort(spec) ? createSteps(spec) : { steps: [], shared: [] };
  if (needsHealthCheck(spec)) steps.push({ index: HEALTH_CHECK, port: spec.healthCheckNodePort || undefined });
  await take(al, obj, spec, steps, allocation, dryRun);
  for (const [i, first] of shared) spec.ports![i].nodePort = spec.ports![first].nodePort;
}

/** The node-port side of an update: new ports taken now, dropped ones released after the write. */
export async function updateNodePorts(
  al: ServiceAllocators,
  obj: Service,
  spec: ServiceSpec,
  old: ServiceSpec,
  allocation: Allocation,
  dryRun: boolean,
): Promise<void> {
  const oldPorts = nodePortsOf(old);
  const release: number[] = [];
  if (needsNodePort(old) && (spec.type === EXTERNAL_NAME || spec.type === CLUSTER_IP)) release.push(...oldPorts);
  const steps: Step[] = [];
  if (needsNodePort(spec)) {
    const seen = new Set<number>();
    (spec.ports ?? []).forEach((p, i) => {
      if (!p.nodePort && !shouldAllocateNodePorts(spec)) return;
      if (!p.nodePort) steps.push({ index: i });
      else if (!oldPorts.includes(p.nodePort) && !seen.has(p.nodePort)) steps.push({ index: i, port: p.nodePort });
      if (p.nodePort) seen.add(p.nodePort);
    });
    // Picked ports cannot be old ones (those are still taken), so the given ones decide what was dropped.
    release.push(...oldPorts.filter((p) => !nodePortsOf(spec).includes(p)));
  }
  if (!needsHealthCheck(old) && needsHealthCheck(spec)) steps.push({ index: HEALTH_CHECK, port: spec.healthCheckNodePort || undefined });
  if (needsHealthCheck(old) && !needsHealthCheck(spec) && old.healthCheckNodePort) release.push(old.healthCheckNodePort);
  await take(al, obj, spec, steps, allocation, dryRun);
  if (release.length > 0) allocation.releaseOnCommit(() => al.nodePorts.release(release));
}

/** What a deleted Service's node ports and health-check node port were. */
export function heldNodePorts(spec: ServiceSpec): number[] {
  const held = nodePortsOf(spec);
  if (needsHealthCheck(spec) && spec.healthCheckNodePort) held.push(spec.healthCheckNodePort);
  return held;
}
