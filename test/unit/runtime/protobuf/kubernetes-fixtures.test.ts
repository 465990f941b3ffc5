/**
 * Bytes Kubernetes' own Go code wrote (test/fixtures/protobuf, captured from kube-apiserver 1.28 and
 * kubectl by scripts/capture-protobuf-fixtures.ts) decode in orch into the JSON Kubernetes serves
 * for the same object; and orch's encoding of that JSON decodes back to it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { definitions } from '../../../../apiserver/api/generated/definitions.js';
import { newProtobufCodec } from '../../../../apiserver/runtime/protobuf/codec.js';
import { decodeWatchEvent } from '../../../../apiserver/runtime/protobuf/envelope.js';

const DIR = fileURLToPath(new URL('../../../../../test/fixtures/protobuf/', import.meta.url));
const codec = newProtobufCodec(newApiDomain('k8s.io'), definitions);
const read = (name: string) => readFileSync(`${DIR}${name}`);
const json = (name: string) => JSON.parse(read(name).toString('utf8'));

/** `part` is contained in `whole`: every key of every object in it, with equal leaves. */
function assertContained(part: unknown, whole: unknown, path = ''): void {
  if (typeof part !== 'object' || part === null) {
    assert.deepEqual(part, whole, path);
    return;
  }
  assert.equal(typeof whole, 'object', path);
  for (const [k, v] of Object.entries(part)) assertContained(v, (whole as Record<string, unknown>)[k], `${path}.${k}`);
}

describe("protobuf written by Kubernetes' Go code", () => {
  const served = readdirSync(DIR).filter((f) => /^(object|list|status)-.*\.pb$/.test(f));

  it('covers objects, a list and a Status', () => {
    assert.ok(served.length >= 7, served.join(' '));
  });

  for (const file of served) {
    it(`${file} decodes into the JSON the reference served, and re-encodes to the same object`, () => {
      const expected = json(file.replace(/\.pb$/, '.json'));
      const { value, unknownFields } = codec.decode(read(file));
      assert.deepEqual(unknownFields, []);
      assert.deepEqual(value, expected);
      assert.deepEqual(codec.decode(codec.encode(expected)).value, expected);
    });
  }

  for (const file of readdirSync(DIR).filter((f) => f.startsWith('request-') && f.endsWith('.pb'))) {
    it(`kubectl's ${file} decodes into what the reference stored from it`, () => {
      const { value, unknownFields } = codec.decode(read(file));
      assert.deepEqual(unknownFields, []);
      const stored = json(file.replace(/\.pb$/, '.json'));
      const { metadata, ...rest } = value as Record<string, any>;
      assert.equal(metadata.name, stored.metadata.name);
      assertContained(rest, stored);
    });
  }

  it('a watch frame of the reference holds the event and its object in its own envelope', () => {
    const frame = read('watch-configmap-added.frame');
    const event = decodeWatchEvent(frame);
    assert.equal(event.type, 'ADDED');
    const object = codec.decode(event.object).value;
    assert.deepEqual(object, json('object-configmap.json'));
  });
});
