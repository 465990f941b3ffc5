import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { readObjectBody } from './read-object-body.js';

/** PUT of an object or a subresource: 200, or 201 when it created the object. */
export async function handleUpdate(s: RequestScope): Promise<void> {
  const object = await readObjectBody(s);
  const { object: stored, created } = await s.store.update(s.ctx, s.info.name, () => object, { subresource: s.info.subresource });
  respond(s, created ? 201 : 200, stored);
}
