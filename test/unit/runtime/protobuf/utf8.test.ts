import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeUtf8, wellFormed } from '../../../../apiserver/runtime/protobuf/utf8.js';
import { decodeMessage, encodeMessage } from '../../../../apiserver/runtime/protobuf/message-codec.js';
import { protoMessage } from '../../../../apiserver/runtime/protobuf/message-types.js';

const hex = (s: string) => Buffer.from(s.replace(/ /g, ''), 'hex');

describe('protobuf strings as Go has them', () => {
  it('wellFormed: lone surrogates become U+FFFD, pairs stay', () => {
    assert.equal(wellFormed('a\ud800b'), 'a\ufffdb');
    assert.equal(wellFormed('\udc00'), '\ufffd');
    assert.equal(wellFormed('\ud800\ud800\udc00'), '\ufffd\ud800\udc00');
    const plain = 'plain ascii é 😀';
    assert.equal(wellFormed(plain), plain);
  });

  it('decodeUtf8: valid UTF-8 as is, a byte-order mark kept, each byte of an invalid sequence one U+FFFD (utf8.DecodeRune)', () => {
    assert.equal(decodeUtf8(Buffer.from('é😀x')), 'é😀x');
    assert.equal(decodeUtf8(hex('ef bb bf 61')), '\ufeffa');
    // A surrogate's CESU bytes, an overlong '/', a cut 4-byte sequence, a stray continuation, bytes past U+10FFFF.
    assert.equal(decodeUtf8(hex('61 ed a0 80 62')), 'a\ufffd\ufffd\ufffdb');
    assert.equal(decodeUtf8(hex('c0 af')), '\ufffd\ufffd');
    assert.equal(decodeUtf8(hex('f0 9f 98 41')), '\ufffd\ufffd\ufffdA');
    assert.equal(decodeUtf8(hex('80 e2 82 ac')), '\ufffd€');
    assert.equal(decodeUtf8(hex('f4 90 80 80')), '\ufffd\ufffd\ufffd\ufffd');
    assert.equal(decodeUtf8(hex('e2 82')), '\ufffd\ufffd');
  });

  it('a ConfigMap with lone surrogates in keys and values is written as valid UTF-8 with U+FFFD, as kube-apiserver writes it', () => {
    const cm = protoMessage('k8s.io.api.core.v1.ConfigMap');
    assert.ok(cm);
    const bytes = encodeMessage(cm, { metadata: { name: 'x', annotations: { 'k\udc00': 'v\ud800' } }, data: { a: '\ud800' } });
    assert.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    assert.ok(!Buffer.from(bytes).includes(hex('ed a0 80')));
    assert.deepEqual(decodeMessage(cm, bytes), {
      metadata: { name: 'x', annotations: { 'k\ufffd': 'v\ufffd' } },
      data: { a: '\ufffd' },
    });
  });

  it('a string starting with a byte-order mark keeps it through protobuf', () => {
    const cm = protoMessage('k8s.io.api.core.v1.ConfigMap');
    assert.ok(cm);
    const value = { metadata: { name: 'x' }, data: { '\ufeffk': '\ufeffv' } };
    assert.deepEqual(decodeMessage(cm, encodeMessage(cm, value)), value);
  });
});
